import { ruleById } from '../../rules/index.js';
import { DEFECT_NAMES, type DefectName } from '../../server/defects/catalogue.js';
import { BROKEN_RULE } from './expectations.js';

/**
 * The verdict that proves a defect caught: a broken MUST rule fails the run;
 * a broken SHOULD or DIALECT rule (target contract section 1) ends `warning`
 * and never fails it.
 */
type CaughtAs = 'failed' | 'warning';

/** One row of the matrix: a defect, the rule it breaks, and the area whose checks are run. */
export interface DefectCase {
  defect: DefectName;
  rule: string;
  area: string;
  caughtAs: CaughtAs;
}

/**
 * Every defect of the catalogue (or those named), with the rule it breaks.
 * A retired rule has no check to notice it: refused here, before anything
 * starts.
 */
export function defectCases(only?: readonly string[]): DefectCase[] {
  const unknown = (only ?? []).filter(
    (name) => !(DEFECT_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) throw new Error(`no such defect: ${unknown.join(', ')}`);
  return DEFECT_NAMES.filter((name) => !only || only.includes(name)).map((defect) => {
    const rule = ruleById(BROKEN_RULE[defect]);
    if (rule.retired) throw new Error(`${defect} breaks ${rule.id}, which is retired`);
    return {
      defect,
      rule: rule.id,
      area: rule.area,
      caughtAs: rule.level === 'MUST' ? 'failed' : 'warning',
    };
  });
}
