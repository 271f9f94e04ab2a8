import type { Waiver } from '../config/waivers.js';
import type { ResultWaiver, RuleResult, RunError, WaiverSummary } from './report-model.js';

const WAIVABLE = new Set(['failed', 'warning']);

/**
 * Marks waived results. A waived failure stays `failed` (the report shows
 * what the target did); the waiver only changes what the exit code counts
 * (`countedForExit`). `now` is the run's start: a waiver valid when the run
 * began holds for the whole run.
 */
export function applyWaivers(
  results: RuleResult[],
  file: string,
  waivers: readonly Waiver[],
  now: Date,
): { results: RuleResult[]; summary: WaiverSummary } {
  const byRule = new Map(waivers.map((w) => [w.rule_id, w]));
  const summary: WaiverSummary = { file, applied: [], expired: [], unused: [] };
  const out = results.map((result): RuleResult => {
    const waiver = byRule.get(result.rule_id);
    if (!waiver) return result;
    const brief = { rule_id: waiver.rule_id, expires: waiver.expires, reason: waiver.reason };
    const active = waiver.expiresAt.getTime() > now.getTime();
    if (!active) summary.expired.push(brief);
    if (!WAIVABLE.has(result.verdict)) {
      // Unused only when the rule was judged and held: a rule left out by --only, not
      // verifiable this run, or ended in error says nothing about whether the waiver is still needed.
      if (active && result.verdict === 'passed') summary.unused.push(brief);
      return result;
    }
    if (active) summary.applied.push(result.rule_id);
    const marked: ResultWaiver = {
      reason: waiver.reason,
      expires: waiver.expires,
      ...(waiver.link ? { link: waiver.link } : {}),
      active,
    };
    return { ...result, waiver: marked };
  });
  return { results: out, summary };
}

/** The results as the exit code counts them: a live waiver's failure does not fail the run. */
export function countedForExit(results: readonly RuleResult[]): RuleResult[] {
  return results.map((r) =>
    r.waiver?.active && r.verdict === 'failed' ? { ...r, verdict: 'passed' } : r,
  );
}

/** The exit reason, saying how many failures waivers kept out of it. */
export function exitWithWaivers<T extends { code: 0 | 1 | 2 | 3; reason: string }>(
  exit: T,
  results: readonly RuleResult[],
  _runErrors: readonly RunError[] = [],
): T {
  const waived = results.filter((r) => r.waiver?.active && r.verdict === 'failed').length;
  if (waived === 0) return exit;
  return {
    ...exit,
    reason: `${exit.reason} (${waived} waived ${waived === 1 ? 'failure' : 'failures'} not counted)`,
  };
}

/** A waived result's mark after its reason, in plain text (reports escape it for their format). */
export function waiverMark(result: RuleResult): string {
  const w = result.waiver;
  if (!w) return '';
  const reason = w.reason.replace(/\s+/g, ' ');
  return w.active
    ? ` (waived until ${w.expires}: ${reason})`
    : ` (waiver EXPIRED ${w.expires}: counts again)`;
}
