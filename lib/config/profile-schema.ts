import { z } from 'zod';
import { REFERENCE_DIALECT } from '../target/dialect.js';

type PathName = keyof typeof REFERENCE_DIALECT.paths;

const httpUrl = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
    'must be an http(s) URL',
  );

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/** A path template must keep the reference's placeholders: the checks fill exactly those. */
function pathTemplate(name: PathName) {
  const expected = placeholders(REFERENCE_DIALECT.paths[name]);
  return z
    .string()
    .regex(/^\/[^\s?#]*$/, 'must be a path starting with "/" (no query, no spaces)')
    .refine(
      (template) => placeholders(template).join() === expected.join(),
      expected.length
        ? `must contain exactly the placeholders ${expected.map((p) => `{${p}}`).join(', ')}`
        : 'must contain no placeholder',
    );
}

const pathNames = Object.keys(REFERENCE_DIALECT.paths) as PathName[];

const PathsSchema = z
  .object(Object.fromEntries(pathNames.map((name) => [name, pathTemplate(name).optional()])))
  .strict();

const pointer = z.string().regex(/^(\/[^/\s]+)+$/, 'must be a JSON pointer such as "/livemode"');
const limitsPointer = pointer.regex(
  /^\/limits\//,
  'must be under "/limits/" (the API document names the object limits)',
);

/** Where GET /account shows each item of section 2 (JSON pointers into its body). */
const AccountFieldsSchema = z
  .object({
    livemode: pointer,
    billingMethod: pointer,
    scopes: pointer,
    maxOrderValue: limitsPointer,
    maxOrdersPerDay: limitsPointer,
  })
  .partial()
  .strict();

/**
 * A target profile (`config/*.json`): where the API document says "not
 * shown", how this target answers. Every field is optional; what is left out
 * keeps the reference dialect (target contract, section 2). Profiles hold no
 * secrets: those come from the environment.
 */
export const ProfileSchema = z
  .object({
    $schema: z.string().optional(),
    description: z.string().optional(),
    /** `{docs_url}` of problem `type` URIs; unset: learned from the first problem seen. */
    docsUrl: httpUrl.optional(),
    /** Default target origin for this profile (a flag or TARGET_BASE_URL wins). */
    target: httpUrl.optional(),
    /** Default control URL (a flag or CONTROL_URL wins). */
    controlUrl: httpUrl.optional(),
    dialect: z
      .object({
        keyPrefix: z
          .string()
          .regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2 to 16 lower-case letters or digits'),
        docsUrl: httpUrl,
        paths: PathsSchema,
        orderCreatedStatus: z.number().int().min(200).max(299),
        accountFields: AccountFieldsSchema,
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

export type Profile = z.output<typeof ProfileSchema>;
