import { z } from 'zod';
import { ProfileSchema } from './profile-schema.js';

/**
 * The published JSON Schema of profiles (`config/profile.schema.json`), made
 * from the zod schema that validates them at load, so the two cannot drift:
 * editors complete and check a profile with it. Refinements zod cannot say
 * in JSON Schema (placeholders, v2 sections, clashing pointers) are checked
 * at load only.
 */
export function profileJsonSchema(): string {
  const schema = z.toJSONSchema(ProfileSchema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  });
  const published = {
    $schema: schema.$schema,
    title: 'Conformance target profile',
    description:
      'How a target answers where the Partner Ordering API document says "not shown". See docs/profiles.md.',
    ...schema,
  };
  return `${JSON.stringify(published, null, 2)}\n`;
}
