import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import type { CheckOutcome } from '../../lib/check/check-outcome.js';
import { TargetWatch } from '../../lib/runner/target-watch.js';
import type { Verdict } from '../../lib/verdict/words.js';

/** The little of a vitest TestCase the watch reads: the outcome a check left. */
function testCase(verdict: Verdict, code?: string): TestCase {
  const conformance: CheckOutcome = {
    ruleId: 'AUTH-01',
    verdict,
    violations: [],
    evidence: [],
    notes: [],
    ...(code ? { harnessError: { code, message: `GET /account: ${code}` } } : {}),
  };
  return { meta: () => ({ conformance }) } as unknown as TestCase;
}

function watch(streak: number) {
  const stops: string[] = [];
  const target = new TargetWatch((reason) => stops.push(reason), streak);
  return { target, stops };
}

describe('TargetWatch', () => {
  it('stops the run once, after the streak of unreachable checks', () => {
    const { target, stops } = watch(3);
    target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
    target.onTestCaseResult(testCase('error', 'HARNESS_NETWORK'));
    expect(stops).toEqual([]);
    target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
    target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
    expect(stops).toEqual([
      'the target stopped answering: 3 checks in a row could not reach it (last: GET /account: HARNESS_TIMEOUT)',
    ]);
    expect(target.reason).toBe(stops[0]);
  });

  it('any answered check in between resets the count: a flaky check is not a dead target', () => {
    const { target, stops } = watch(3);
    for (const verdict of ['passed', 'failed', 'warning', 'not_verifiable'] as const) {
      target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
      target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
      target.onTestCaseResult(testCase(verdict));
    }
    expect(stops).toEqual([]);
  });

  it('other harness errors (set-up, control, our bugs) do not count and reset the count', () => {
    const { target, stops } = watch(2);
    target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
    target.onTestCaseResult(testCase('error', 'HARNESS_SETUP'));
    target.onTestCaseResult(testCase('error', 'HARNESS_TIMEOUT'));
    target.onTestCaseResult(testCase('error', 'HARNESS_BUG'));
    expect(stops).toEqual([]);
    expect(target.reason).toBeUndefined();
  });

  it('skipped checks neither count nor reset', () => {
    const { target, stops } = watch(2);
    target.onTestCaseResult(testCase('error', 'HARNESS_NETWORK'));
    target.onTestCaseResult(testCase('skipped'));
    target.onTestCaseResult(testCase('error', 'HARNESS_NETWORK'));
    expect(stops).toHaveLength(1);
  });
});
