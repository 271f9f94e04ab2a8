import type { RuleResult } from './report-model.js';

/** A waived result's mark after its reason, in plain text (reports escape it for their format). */
export function waiverMark(result: RuleResult): string {
  const w = result.waiver;
  if (!w) return '';
  const reason = w.reason.replace(/\s+/g, ' ');
  if (w.ignored_by_certify)
    return ` (a waiver until ${w.expires} would cover it, but --certify counts it: ${reason})`;
  return w.active
    ? ` (waived until ${w.expires}: ${reason})`
    : ` (waiver EXPIRED ${w.expires}: counts again)`;
}
