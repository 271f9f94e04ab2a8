import type { Waiver } from '../config/waiver-file.js';
import type { ResultWaiver, RuleResult, WaiverSummary } from '../reports/report-model.js';
import type { Verdict } from './words.js';

const WAIVABLE: ReadonlySet<Verdict> = new Set(['failed', 'warning']);

/**
 * Marks waived results. A waived failure stays `failed` (the report shows
 * what the target did); the waiver only changes what the exit code counts
 * (decide.ts). `now` is the run's start: a waiver valid when the run began
 * holds for the whole run. A `--certify` run ignores waivers: it marks what
 * a waiver would have covered, and that failure counts.
 */
export function applyWaivers(
  results: readonly RuleResult[],
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
