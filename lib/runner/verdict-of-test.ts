import type { Level } from '../../rules/index.js';
import type { CheckOutcome, Verdict } from '../check/verdict.js';
import type { CollectedTest } from './collected.js';

/** A test's verdict and the facts behind it, before it is merged into its rule's result. */
export interface TestVerdict {
  verdict: Verdict;
  reason?: string;
  outcome?: CheckOutcome;
}

/**
 * Decides one test's verdict. The check's own outcome is trusted, with two
 * guards: a SHOULD or DIALECT rule never `failed` (section 1 of the target
 * contract: a warning at most), and a test vitest failed cannot have passed.
 * A test that left no outcome is an `error` (the harness broke), never a
 * failure of the target.
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
    let verdict = outcome.verdict;
    if (verdict === 'failed' && level !== 'MUST') verdict = 'warning';
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
const SERIOUSNESS: Verdict[] = [
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
