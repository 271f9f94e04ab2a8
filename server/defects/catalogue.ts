import { ACCT_DEFECTS } from './acct.js';
import { AUTH_DEFECTS } from './auth.js';
import { CANCEL_DEFECTS } from './cancel.js';
import type { Defect } from './defect.js';
import { ERR_DEFECTS } from './err.js';
import { HOOK_DEFECTS } from './hook.js';
import { IDEM_DEFECTS } from './idem.js';
import { IP_DEFECTS } from './ip.js';
import { KEY_DEFECTS } from './key.js';
import { MODE_DEFECTS } from './mode.js';
import { MODEL_DEFECTS } from './model.js';
import { ORDER_DEFECTS } from './order.js';
import { PAY_DEFECTS } from './pay.js';
import { PROB_DEFECTS } from './prob.js';
import { RACE_DEFECTS } from './race.js';
import { RATE_DEFECTS } from './rate.js';
import { READ_DEFECTS } from './read.js';
import { SCOPE_DEFECTS } from './scope.js';
import { SVC_DEFECTS } from './svc.js';
import { TOKEN_DEFECTS } from './token.js';
import { URL_DEFECTS } from './url.js';

/**
 * Test-only defects that each break one documented rule of the reference on
 * purpose, so that the suite can be proven to fail a broken server and name
 * the rule (the defect matrix, test/matrices/). Set only in-process through
 * `buildApp({ defects })` / `startServer({ defects })`: no HTTP route, control
 * call, CLI flag or environment variable reaches them.
 *
 * Each defect is a value (defect.ts: name, area, what it breaks, the
 * functions it replaces) in the file of its area, `server/defects/<area>.ts`;
 * app.ts composes the selected ones beside the correct server once, at start
 * (compose.ts `withDefects`). A new defect goes in its area's list (a new area:
 * a new file, listed here); then name the rule it breaks in
 * test/matrices/expectations.ts and regenerate docs/detection-matrix.md
 * (`npm run defects:matrix`). Which rule each one breaks is the test side's
 * knowledge, never the server's.
 */
const AREAS = [
  TOKEN_DEFECTS,
  AUTH_DEFECTS,
  KEY_DEFECTS,
  SCOPE_DEFECTS,
  URL_DEFECTS,
  IP_DEFECTS,
  ACCT_DEFECTS,
  RATE_DEFECTS,
  RACE_DEFECTS,
  IDEM_DEFECTS,
  ORDER_DEFECTS,
  PAY_DEFECTS,
  PROB_DEFECTS,
  CANCEL_DEFECTS,
  MODE_DEFECTS,
  HOOK_DEFECTS,
  SVC_DEFECTS,
  ERR_DEFECTS,
  READ_DEFECTS,
  MODEL_DEFECTS,
] as const;

export type DefectName = (typeof AREAS)[number][number]['name'];

/** Every defect, area by area. */
export const CATALOGUE: readonly (Defect & { readonly name: DefectName })[] = Object.freeze(
  AREAS.flat(),
);

const BY_NAME: ReadonlyMap<string, Defect> = (() => {
  const byName = new Map<string, Defect>();
  for (const defect of CATALOGUE) {
    if (byName.has(defect.name)) throw new Error(`defect ${defect.name} is listed twice`);
    byName.set(defect.name, defect);
  }
  return byName;
})();

/** What each defective server does, by defect name. */
export const DEFECTS: Readonly<Record<DefectName, string>> = Object.freeze(
  Object.fromEntries(CATALOGUE.map((defect) => [defect.name, defect.breaks])) as Record<
    DefectName,
    string
  >,
);

/** Every defect name, in catalogue order. */
export const DEFECT_NAMES: readonly DefectName[] = Object.freeze(
  CATALOGUE.map((defect) => defect.name),
);

function isDefectName(name: string): name is DefectName {
  return BY_NAME.has(name);
}

/**
 * The defects of these names. An unknown name is refused at once: a typo in a
 * test would otherwise start a correct server and prove nothing.
 */
export function selectDefects(names: readonly string[]): readonly Defect[] {
  const unknown = names.filter((name) => !isDefectName(name));
  if (unknown.length > 0) {
    throw new Error(`unknown defect ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  }
  return [...new Set(names)].map((name) => BY_NAME.get(name) as Defect);
}
