import { BROKEN_RULE } from './expectations.js';

/** The defect-matrix defects that break a rule (expectations.ts read the other way), sorted. */
export function defectsOf(ruleId: string): string[] {
  return Object.entries(BROKEN_RULE as Readonly<Record<string, string>>)
    .filter(([, rule]) => rule === ruleId)
    .map(([defect]) => defect)
    .sort();
}
