import type { Waiver } from '../config/waivers.js';
import { type ExitDecision, exitDecision } from '../runner/exit-code.js';
import { coverageFigure, coverageOf } from './outcome.js';
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
  options: { certify?: boolean } = {},
): { results: RuleResult[]; summary: WaiverSummary } {
  const byRule = new Map(waivers.map((w) => [w.rule_id, w]));
  const wouldCover: string[] = [];
  const summary: WaiverSummary = {
    file,
    applied: [],
    ...(options.certify ? { certify: { would_cover: wouldCover } } : {}),
    expired: [],
    unused: [],
  };
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
    if (active) (options.certify ? wouldCover : summary.applied).push(result.rule_id);
    const marked: ResultWaiver = {
      reason: waiver.reason,
      expires: waiver.expires,
      ...(waiver.link ? { link: waiver.link } : {}),
      active,
      ...(active && options.certify ? { ignored_by_certify: true as const } : {}),
    };
    return { ...result, waiver: marked };
  });
  return { results: out, summary };
}

/** A failure (or warning) a live waiver keeps out of the exit code: never in a `--certify` run. */
export function isWaived(result: RuleResult): boolean {
  return result.waiver?.active === true && result.waiver.ignored_by_certify !== true;
}

/** The results as the exit code counts them: a live waiver's failure does not fail the run. */
export function countedForExit(results: readonly RuleResult[]): RuleResult[] {
  return results.map((r) =>
    isWaived(r) && r.verdict === 'failed' ? { ...r, verdict: 'passed' } : r,
  );
}

/**
 * The exit decision with waivers (issue 25). Waivers change the exit code,
 * never the outcome: a run whose only MUST failures are waived exits 0 and
 * says so plainly ("Does not conform: 3 MUST failures, all waived until
 * …"); a `--certify` run ignores waivers (a certificate with a waived
 * failure is `does_not_conform`, exit 1) and names what a waiver would
 * have covered.
 */
export function exitWithWaivers(
  results: readonly RuleResult[],
  runErrors: readonly RunError[],
  options: { certify?: boolean } = {},
): ExitDecision {
  const exit = exitDecision(countedForExit(results), runErrors, options);
  const mustFailed = results.filter((r) => r.level === 'MUST' && r.verdict === 'failed');
  const waived = mustFailed.filter(isWaived);
  const ignored = mustFailed.filter((r) => r.waiver?.ignored_by_certify);
  if (ignored.length > 0) {
    const ids = ignored.map((r) => r.rule_id).join(', ');
    return {
      ...exit,
      reason: `${exit.reason} (--certify ignores waivers: a waiver would have covered ${ids})`,
    };
  }
  if (waived.length === 0) return exit;
  const failures = `${mustFailed.length} MUST ${mustFailed.length === 1 ? 'failure' : 'failures'}`;
  if (waived.length === mustFailed.length && exit.code !== 1) {
    const until = earliest(waived.map((r) => r.waiver?.expires ?? ''));
    const all = mustFailed.length === 1 ? 'waived' : 'all waived';
    const head = `Does not conform: ${failures}, ${all} until ${until}`;
    // Exit 0 only because of the waivers; any other code has a cause of its own, named after.
    return {
      ...exit,
      reason:
        exit.code === 0
          ? `${head} (exit 0 only because of the waivers; not a certificate: --certify ignores waivers); ${coverageFigure(coverageOf(results))}`
          : `${head}; and ${exit.reason}`,
    };
  }
  return {
    ...exit,
    reason: `${exit.reason} (${waived.length} more waived: ${waived.map((r) => r.rule_id).join(', ')})`,
  };
}

/** The first expiry of a list of `YYYY-MM-DD` or ISO instants: when the exit code can turn. */
function earliest(expiries: readonly string[]): string {
  return [...expiries].sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? '';
}

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
