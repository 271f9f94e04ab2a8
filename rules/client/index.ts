import { CatalogueError } from '../index.js';
import { rules } from './rules.js';
import { CLIENT_AREA, type ClientRule, type ClientRuleInput, ClientRuleSchema } from './schema.js';

export type { ClientArea, ClientRule } from './schema.js';
export { CLIENT_AREA, CLIENT_AREA_TITLE } from './schema.js';
export { SITUATION_NAMES, SITUATIONS, type SituationName } from './situations.js';

/** Validates the client rules as the target's catalogue is validated: well-formed, ids unique. */
export function loadClientCatalogue(inputs: readonly ClientRuleInput[]): readonly ClientRule[] {
  const seen = new Set<string>();
  return inputs.map((input, index) => {
    const parsed = ClientRuleSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') ?? '';
      throw new CatalogueError(
        `client rule #${index} (${String((input as { id?: unknown }).id)}): ${where} ${issue?.message}`,
      );
    }
    if (seen.has(parsed.data.id)) throw new CatalogueError(`duplicate rule id ${parsed.data.id}`);
    seen.add(parsed.data.id);
    return Object.freeze({ ...parsed.data, area: CLIENT_AREA });
  });
}

/** Every client rule, retired ones included (their ids stay taken). */
export const clientCatalogue: readonly ClientRule[] = loadClientCatalogue(rules);

/** The client rules a grading judges. */
export const activeClientRules: readonly ClientRule[] = clientCatalogue.filter((r) => !r.retired);
