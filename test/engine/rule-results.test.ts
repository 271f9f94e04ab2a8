import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from '../../lib/check/check-outcome.js';
import type { CollectedRun, CollectedTest } from '../../lib/runner/collected.js';
import { exitDecision } from '../../lib/verdict/decide.js';
import { mergeResults, UNCOVERED_REASON } from '../../lib/verdict/rule-results.js';
import type { Rule, RuleId } from '../../rules/index.js';
import { emptyDir } from '../support/temp-dir.js';

function rule(id: RuleId, level: Rule['level']): Rule {
  return {
    id,
    level,
    title: `${level} do the thing ${id}`,
    section: '4',
    needs: [],
    retired: false,
    provokes429: false,
    source: { doc: 'api', section: '4', quote: ['a sentence of section 4'] },
    area: id.split('-')[0] as Rule['area'],
  };
}

const RULES = [
  rule('IDEM-01', 'MUST'),
  rule('IDEM-02', 'SHOULD'),
  rule('TOKEN-01', 'MUST'),
  rule('TOKEN-02', 'DIALECT'),
];

function outcome(ruleId: string, verdict: CheckOutcome['verdict'], reason?: string): CheckOutcome {
  return {
    ruleId,
    verdict,
    violations: [],
    evidence: [],
    notes: [],
    ...(reason ? { reason } : {}),
  };
}

function test(r: Rule, partial: Partial<CollectedTest>): CollectedTest {
  return {
    name: `${r.id} ${r.title}`,
    ruleId: r.id,
    file: 'suites/x.check.ts',
    state: 'passed',
    mode: 'run',
    errors: [],
    ...partial,
  };
}

/** A test not registered through `check()`: no rule on its task. */
function withoutRule({ ruleId: _none, ...rest }: CollectedTest): CollectedTest {
  return rest;
}

function run(tests: CollectedTest[], extra: Partial<CollectedRun> = {}): CollectedRun {
  return { tests, fileErrors: [], unhandled: [], endReason: 'passed', ...extra };
}

const [idem1, idem2, token1, token2] = RULES as [Rule, Rule, Rule, Rule];

describe('mergeResults', () => {
  it('gives every active rule exactly one result, in catalogue order', () => {
    const { results } = mergeResults({ rules: RULES, only: [], run: run([]), root: '/' });
    expect(results.map((r) => r.rule_id)).toEqual(RULES.map((r) => r.id));
  });

  it('marks a rule no check implements as uncovered, not_verifiable', () => {
    const { results } = mergeResults({ rules: RULES, only: [], run: run([]), root: '/' });
    expect(results[0]).toMatchObject({
      verdict: 'not_verifiable',
      reason: UNCOVERED_REASON,
      uncovered: true,
    });
  });

  it("takes the check's outcome, and never lets a SHOULD or DIALECT rule fail", () => {
    const { results } = mergeResults({
      rules: RULES,
      only: [],
      run: run([
        test(idem1, {
          state: 'failed',
          errors: ['x'],
          outcome: outcome('IDEM-01', 'failed', 'expected 200'),
        }),
        test(idem2, {
          state: 'failed',
          errors: ['x'],
          outcome: outcome('IDEM-02', 'failed', 'no header'),
        }),
        test(token2, { outcome: outcome('TOKEN-02', 'passed') }),
      ]),
      root: '/',
    });
    expect(results.map((r) => r.verdict)).toEqual([
      'failed',
      'warning',
      'not_verifiable',
      'passed',
    ]);
    expect(results[0]?.reason).toBe('expected 200');
  });

  it('turns tests without an outcome into errors with their message, never failures', () => {
    const { results } = mergeResults({
      rules: RULES,
      only: [],
      run: run([
        test(idem1, { state: 'failed', errors: ['Error: Test timed out in 60000ms.'] }),
        test(idem2, { state: 'passed' }),
        test(token1, { state: 'pending' }),
      ]),
      root: '/',
    });
    expect(results.slice(0, 3).map((r) => r.verdict)).toEqual(['error', 'error', 'error']);
    expect(results[0]?.reason).toContain('timed out');
    expect(results[1]?.reason).toContain('no conformance outcome');
    expect(results[2]?.reason).toContain('interrupted');
  });

  it('does not trust a passed outcome whose test vitest failed', () => {
    const { results } = mergeResults({
      rules: RULES,
      only: [],
      run: run([
        test(idem1, {
          state: 'failed',
          errors: ['afterEach broke'],
          outcome: outcome('IDEM-01', 'passed'),
        }),
      ]),
      root: '/',
    });
    expect(results[0]).toMatchObject({ verdict: 'error' });
    expect(results[0]?.reason).toContain('afterEach broke');
  });

  it('skips what --only filtered out, with or without a check', () => {
    const { results } = mergeResults({
      rules: RULES,
      only: ['TOKEN'],
      run: run([
        test(idem1, { state: 'skipped' }),
        test(token1, { outcome: outcome('TOKEN-01', 'passed') }),
      ]),
      root: '/',
    });
    expect(results.map((r) => r.verdict)).toEqual([
      'skipped',
      'skipped',
      'passed',
      'not_verifiable',
    ]);
    expect(results[1]?.reason).toBe('filtered out by --only');
  });

  it('gives the rules of a file that failed to load `error`, found in its source', () => {
    const root = emptyDir();
    mkdirSync(join(root, 'suites'));
    writeFileSync(
      join(root, 'suites', 'broken.check.ts'),
      'check(\'IDEM-01\', async () => {});\ncheck("TOKEN-01", x);\n',
    );
    const { results, runErrors } = mergeResults({
      rules: RULES,
      only: [],
      run: run([], {
        fileErrors: [
          { file: 'suites/broken.check.ts', message: 'SyntaxError: oops', collected: false },
        ],
      }),
      root,
    });
    expect(results[0]).toMatchObject({ verdict: 'error', file: 'suites/broken.check.ts' });
    expect(results[0]?.reason).toContain('SyntaxError: oops');
    expect(results[2]).toMatchObject({ verdict: 'error' });
    expect(runErrors).toEqual([
      expect.objectContaining({
        source: 'suites/broken.check.ts',
        rule_ids: ['IDEM-01', 'TOKEN-01'],
      }),
    ]);
  });

  it('does not call a rule uncovered when an interrupted run never reached it', () => {
    const { results } = mergeResults({
      rules: RULES,
      only: [],
      run: run([], { endReason: 'interrupted' }),
      root: '/',
    });
    expect(results[0]).toMatchObject({
      verdict: 'error',
      reason: 'not run: the run was interrupted',
    });
  });

  it('keeps what belongs to no rule as a run error', () => {
    const { runErrors } = mergeResults({
      rules: RULES,
      only: [],
      run: run([withoutRule(test(idem1, { name: 'a test with no rule id' }))], {
        unhandled: ['Error: socket hang up'],
        fileErrors: [
          { file: 'suites/x.check.ts', message: 'afterAll: cleanup failed', collected: true },
        ],
      }),
      root: '/',
    });
    expect(runErrors.map((e) => e.message)).toEqual([
      'the test "a test with no rule id" names no active rule of the catalogue',
      'afterAll: cleanup failed',
      'Error: socket hang up',
    ]);
  });

  it('lets the most serious verdict lead when one rule has two tests', () => {
    const { results } = mergeResults({
      rules: RULES,
      only: [],
      run: run([
        test(idem1, { outcome: outcome('IDEM-01', 'passed') }),
        test(idem1, {
          state: 'failed',
          errors: ['x'],
          outcome: outcome('IDEM-01', 'failed', 'second'),
        }),
      ]),
      root: '/',
    });
    expect(results[0]).toMatchObject({ verdict: 'failed', reason: 'second' });
  });
});

describe('exitDecision (target contract, section 4)', () => {
  const result = (level: Rule['level'], verdict: CheckOutcome['verdict']) =>
    ({ rule_id: 'X-01', title: 't', section: '1', level, verdict, area: 'IDEM' }) as const;

  it('0 when no MUST failed and nothing ended in error, warnings and not_verifiable included', () => {
    expect(
      exitDecision(
        [result('MUST', 'passed'), result('SHOULD', 'warning'), result('MUST', 'not_verifiable')],
        [],
      ).code,
    ).toBe(0);
  });
  it('1 when a MUST check failed, even beside errors', () => {
    expect(exitDecision([result('MUST', 'failed'), result('MUST', 'error')], []).code).toBe(1);
  });
  it('2 when a check ended in error or the run had an error: never counted as a failure', () => {
    expect(exitDecision([result('MUST', 'error')], []).code).toBe(2);
    expect(
      exitDecision([result('MUST', 'passed')], [{ source: 'vitest', message: 'x' }]).code,
    ).toBe(2);
  });
});
