import { rules as acct } from './areas/acct.js';
import { rules as auth } from './areas/auth.js';
import { rules as cancel } from './areas/cancel.js';
import { rules as err } from './areas/err.js';
import { rules as hook } from './areas/hook.js';
import { rules as idem } from './areas/idem.js';
import { rules as ip } from './areas/ip.js';
import { rules as key } from './areas/key.js';
import { rules as mode } from './areas/mode.js';
import { rules as model } from './areas/model.js';
import { rules as order } from './areas/order.js';
import { rules as pay } from './areas/pay.js';
import { rules as prob } from './areas/prob.js';
import { rules as race } from './areas/race.js';
import { rules as rate } from './areas/rate.js';
import { rules as read } from './areas/read.js';
import { rules as scope } from './areas/scope.js';
import { rules as svc } from './areas/svc.js';
import { rules as token } from './areas/token.js';
import { rules as url } from './areas/url.js';
import { areaOf, type RuleInput, RuleSchema, type Rule as SchemaRule } from './schema.js';

export type { Area, Capability, Level } from './schema.js';

/** A rule of the catalogue: the schema's output, its id one of the catalogue's. */
export type Rule = SchemaRule & { id: RuleId };

/** Every rule id of the catalogue, retired ones included: an id not in an area file fails typecheck. */
export type RuleId = (
  | typeof token
  | typeof auth
  | typeof key
  | typeof scope
  | typeof url
  | typeof ip
  | typeof acct
  | typeof rate
  | typeof race
  | typeof idem
  | typeof order
  | typeof pay
  | typeof prob
  | typeof cancel
  | typeof mode
  | typeof read
  | typeof hook
  | typeof svc
  | typeof err
  | typeof model
)[number]['id'];
export { AREAS, CAPABILITIES, LEVELS } from './schema.js';

/** Thrown at load when the catalogue's data is malformed: a programming error, caught by `npm test`. */
export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

/** Validates the raw catalogue: every entry well-formed, ids unique. */
export function loadCatalogue(inputs: readonly RuleInput[]): readonly Rule[] {
  const seen = new Set<string>();
  return inputs.map((input, index) => {
    const parsed = RuleSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') ?? '';
      throw new CatalogueError(
        `rule #${index} (${String((input as { id?: unknown }).id)}): ${where} ${issue?.message}`,
      );
    }
    if (seen.has(parsed.data.id)) throw new CatalogueError(`duplicate rule id ${parsed.data.id}`);
    seen.add(parsed.data.id);
    // The id is the one of the input, which areaRules typed as a RuleId.
    return Object.freeze({ ...parsed.data, area: areaOf(parsed.data.id) }) as Rule;
  });
}

/** Every rule, in catalogue order, retired ones included (their ids stay taken). */
export const catalogue: readonly Rule[] = loadCatalogue([
  ...token,
  ...auth,
  ...key,
  ...scope,
  ...url,
  ...ip,
  ...acct,
  ...rate,
  ...race,
  ...idem,
  ...order,
  ...pay,
  ...prob,
  ...cancel,
  ...mode,
  ...read,
  ...hook,
  ...svc,
  ...err,
  ...model,
]);

/** The rules a run checks. */
export const activeRules: readonly Rule[] = catalogue.filter((rule) => !rule.retired);

const byId = new Map<string, Rule>(catalogue.map((rule) => [rule.id, rule]));

export function findRule(id: string): Rule | undefined {
  return byId.get(id);
}

export function ruleById(id: RuleId): Rule {
  const rule = byId.get(id);
  if (!rule) throw new CatalogueError(`no rule ${id} in the catalogue`);
  return rule;
}
