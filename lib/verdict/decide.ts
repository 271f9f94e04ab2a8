import type { Level } from '../../rules/index.js';
import { statementCoverage } from '../../rules/statements/index.js';
import type { CheckOutcome } from '../check/check-outcome.js';
import type { Waiver } from '../config/waiver-file.js';
import type { RuleResult, RunError, Summary, WaiverSummary } from '../reports/report-model.js';
import type { CollectedTest } from '../runner/collected.js';
import { applyWaivers, isWaived } from './apply-waivers.js';
import {
  type Coverage,
  EXIT,
  type ExitDecision,
  type Outcome,
  VERDICTS,
  type Verdict,
} from './words.js';

/**
 * Every decision between a check's judgements and the process's exit code,
 * in the order a run takes them (target contract, sections 1 and 4):
 *
 *   violatedVerdict  a check that found a violation: `failed` (MUST) or `warning`
 *   verdictOfTest    one vitest test, as the runner collected it
 *   moreSerious      several tests of one rule: which verdict leads
 *   decideRun        the run's results: waivers, counts, coverage, outcome, exit code
 *
 * Reports and the terminal render what these decided; none decides again.
 */

/** A check that found a violation: only a MUST rule fails; SHOULD and DIALECT warn. */
export function violatedVerdict(level: Level): 'failed' | 'warning' {
  return level === 'MUST' ? 'failed' : 'warning';
}

/** A test's verdict and the facts behind it, before it is merged into its rule's result. */
export interface TestVerdict {
  verdict: Verdict;
  reason?: string;
  outcome?: CheckOutcome;
}

/**
 * One test's verdict. The check's own outcome is trusted, with two guards: a
 * SHOULD or DIALECT rule never `failed` (the same decision as the check's,
 * violatedVerdict), and a test vitest failed cannot have passed. A test that
 * left no outcome is an `error` (the harness broke), never a failure of the
 * target.
 */
export function verdictOfTest(
  test: CollectedTest,
  level: Level,
  selected: boolean,
  /** When the run was cut short: why, for the checks it never reached. */
  interrupted?: string,
): TestVerdict {
  const outcome = test.outcome;
  if (outcome) {
    const verdict = outcome.verdict === 'failed' ? violatedVerdict(level) : outcome.verdict;
    if (test.state === 'failed' && (verdict === 'passed' || verdict === 'skipped')) {
      return {
        verdict: 'error',
        reason: `the check ended ${verdict} but its test failed: ${test.errors[0] ?? 'unknown error'}`,
        outcome,
      };
    }
    return { verdict, ...(outcome.reason ? { reason: outcome.reason } : {}), outcome };
  }
  switch (test.state) {
    case 'failed':
      return {
        verdict: 'error',
        reason: test.errors[0] ?? 'the check failed without an error message',
      };
    case 'pending':
      return {
        verdict: 'error',
        reason: interrupted ?? 'the check did not finish (the run was interrupted)',
      };
    case 'passed':
      return {
        verdict: 'error',
        reason: 'the test recorded no conformance outcome (is it written with check()?)',
      };
    case 'skipped':
      if (!selected) return { verdict: 'skipped', reason: 'filtered out by --only' };
      // A cancelled run leaves the checks it never reached skipped: not run is an error, not n/v.
      if (interrupted && test.mode === 'run') return { verdict: 'error', reason: interrupted };
      return test.mode === 'skip' || test.mode === 'todo'
        ? { verdict: 'not_verifiable', reason: `the check is marked ${test.mode} in the suite` }
        : { verdict: 'not_verifiable', reason: 'the check skipped itself without an outcome' };
  }
}

/** Which verdict wins when one rule has several tests: the most serious. */
const SERIOUSNESS: readonly Verdict[] = [
  'skipped',
  'passed',
  'not_verifiable',
  'warning',
  'error',
  'failed',
];

export function moreSerious(a: Verdict, b: Verdict): Verdict {
  return SERIOUSNESS.indexOf(a) >= SERIOUSNESS.indexOf(b) ? a : b;
}

/** What a run verified: `passed` or `failed`, per level, and the server statements it checked. */
export function coverageOf(results: readonly RuleResult[]): Coverage {
  const verified = (r: RuleResult) => r.verdict === 'passed' || r.verdict === 'failed';
  const must = results.filter((r) => r.level === 'MUST');
  const should = results.filter((r) => r.level === 'SHOULD');
  // A server statement of the API document or the contract's readings is checked in this run when
  // it has no gap and one of its rules was verified here (docs/statements.md).
  const statements = statementCoverage(new Set(results.filter(verified).map((r) => r.rule_id)));
  return {
    must_total: must.length,
    must_verified: must.filter(verified).length,
    should_total: should.length,
    should_verified: should.filter(verified).length,
    statements_total: statements.server_total,
    statements_checked: statements.server_checked,
  };
}

/**
 * "verified 104 of 132 MUST rules, 180 of 238 server statements checked": the figure every report
 * format states beside the outcome. A run that left statements unchecked says how many and why
 * they count: a partial run (filtered, or without a capability) checks fewer.
 */
export function coverageFigure(coverage: Coverage): string {
  const rules = `verified ${coverage.must_verified} of ${coverage.must_total} MUST rules`;
  // Reports written before the statement index have no statement figure: the rules' alone.
  if (coverage.statements_total === undefined) return rules;
  const partial = coverage.must_verified < coverage.must_total ? ': a partial run' : '';
  return `${rules}, ${coverage.statements_checked ?? 0} of ${coverage.statements_total} server statements checked${partial}`;
}

/** The run's outcome: waivers never change it (a waived failure still does not conform). */
export function outcomeOf(
  results: readonly RuleResult[],
  runErrors: readonly RunError[] = [],
): Outcome {
  if (results.some((r) => r.level === 'MUST' && r.verdict === 'failed')) return 'does_not_conform';
  if (runErrors.length > 0 || results.some((r) => r.verdict === 'error')) return 'undecided';
  const { must_total, must_verified } = coverageOf(results);
  return must_verified === must_total ? 'conforms' : 'partial';
}

/**
 * Counts per verdict (every verdict present, zero or not, so consumers never
 * meet a missing key), the coverage and the outcome.
 */
export function summarize(
  results: readonly RuleResult[],
  runErrors: readonly RunError[] = [],
): Summary {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    Verdict,
    number
  >;
  for (const result of results) counts[result.verdict] += 1;
  return { ...counts, coverage: coverageOf(results), outcome: outcomeOf(results, runErrors) };
}

/**
 * The exit code of section 4 of the target contract, and why. A MUST failure
 * is the target's and decides first (1). A harness error is never the
 * target's failure, but a run with one did not decide every rule, so it
 * cannot say 0 (2). A partial run says 0, or 3 with `--certify`. A live
 * waiver keeps its failure out of the count (never in a `--certify` run),
 * and the sentence says so.
 */
export function exitDecision(
  results: readonly RuleResult[],
  runErrors: readonly RunError[],
  options: { certify?: boolean } = {},
): ExitDecision {
  const counted = results.map((r) =>
    isWaived(r) && r.verdict === 'failed' ? { ...r, verdict: 'passed' as const } : r,
  );
  const exit = unwaivedExit(counted, runErrors, options);
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
  if (waived.length === mustFailed.length && exit.code !== EXIT.failed) {
    const until = earliest(waived.map((r) => r.waiver?.expires ?? ''));
    const all = mustFailed.length === 1 ? 'waived' : 'all waived';
    const head = `Does not conform: ${failures}, ${all} until ${until}`;
    // Exit 0 only because of the waivers; any other code has a cause of its own, named after.
    return {
      ...exit,
      reason:
        exit.code === EXIT.ok
          ? `${head} (exit 0 only because of the waivers; not a certificate: --certify ignores waivers); ${coverageFigure(coverageOf(results))}`
          : `${head}; and ${exit.reason}`,
    };
  }
  return {
    ...exit,
    reason: `${exit.reason} (${waived.length} more waived: ${waived.map((r) => r.rule_id).join(', ')})`,
  };
}

function unwaivedExit(
  results: readonly RuleResult[],
  runErrors: readonly RunError[],
  options: { certify?: boolean },
): ExitDecision {
  const mustFailures = results.filter((r) => r.level === 'MUST' && r.verdict === 'failed').length;
  if (mustFailures > 0) {
    return {
      code: EXIT.failed,
      reason: `${mustFailures} MUST ${mustFailures === 1 ? 'check' : 'checks'} failed: the target does not conform`,
    };
  }
  const errors = results.filter((r) => r.verdict === 'error').length;
  if (errors > 0 || runErrors.length > 0) {
    const parts = [
      errors ? `${errors} ${errors === 1 ? 'check' : 'checks'} ended in error` : '',
      runErrors.length
        ? `${runErrors.length} run ${runErrors.length === 1 ? 'error' : 'errors'}`
        : '',
    ].filter(Boolean);
    return {
      code: EXIT.notCarriedOut,
      reason: `${parts.join(' and ')} (the suite or the network, not the target): the run could not decide`,
    };
  }
  const coverage = coverageOf(results);
  if (coverage.must_verified < coverage.must_total) {
    const partial = `no MUST check failed and none ended in error, but the run is partial: ${coverageFigure(coverage)}`;
    return options.certify
      ? {
          code: EXIT.partialCertify,
          reason: `${partial}; --certify needs every MUST rule verified`,
        }
      : { code: EXIT.ok, reason: partial };
  }
  return {
    code: EXIT.ok,
    reason: `no MUST check failed and none ended in error; ${coverageFigure(coverage)}`,
  };
}

/** The first expiry of a list of `YYYY-MM-DD` or ISO instants: when the exit code can turn. */
function earliest(expiries: readonly string[]): string {
  return [...expiries].sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? '';
}

/** What a run decided from its rules' results: what every report renders. */
export interface RunDecision {
  /** The results, waived ones marked. */
  results: RuleResult[];
  summary: Summary;
  exit: ExitDecision;
  /** With `--waivers`: what the waivers file did. */
  waivers?: WaiverSummary;
}

/** The run's decisions, once, from its results: waivers, then counts and outcome, then the exit code. */
export function decideRun(input: {
  results: RuleResult[];
  runErrors: RunError[];
  /** The run's start: a waiver valid then holds for the whole run. */
  startedAt: Date;
  certify?: boolean;
  waivers?: { file: string; waivers: readonly Waiver[] };
}): RunDecision {
  const certify = input.certify === true;
  const waived = input.waivers
    ? applyWaivers(input.results, input.waivers.file, input.waivers.waivers, input.startedAt, {
        certify,
      })
    : undefined;
  const results = waived?.results ?? input.results;
  return {
    results,
    summary: summarize(results, input.runErrors),
    exit: exitDecision(results, input.runErrors, { certify }),
    ...(waived ? { waivers: waived.summary } : {}),
  };
}
