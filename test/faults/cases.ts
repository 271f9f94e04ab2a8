import { ruleById } from '../../rules/index.js';
import { DEFECT_NAMES, type DefectName } from '../../server/defects/catalogue.js';
import { BROKEN_RULE } from './expectations.js';

/** One row of the matrix: a defect, the rule it breaks, and the area whose checks are run. */
export interface DefectCase {
  defect: DefectName;
  rule: string;
  area: string;
}

/**
 * Every defect of the catalogue (or those named), with the rule it breaks.
 * A rule that is not an active MUST rule could not fail a run: refused here,
 * before anything starts.
 */
export function defectCases(only?: readonly string[]): DefectCase[] {
  const unknown = (only ?? []).filter(
    (name) => !(DEFECT_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) throw new Error(`no such defect: ${unknown.join(', ')}`);
  return DEFECT_NAMES.filter((name) => !only || only.includes(name)).map((defect) => {
    const rule = ruleById(BROKEN_RULE[defect]);
    if (rule.retired || rule.level !== 'MUST') {
      throw new Error(`${defect} breaks ${rule.id}, which is not an active MUST rule`);
    }
    return { defect, rule: rule.id, area: rule.area };
  });
}
