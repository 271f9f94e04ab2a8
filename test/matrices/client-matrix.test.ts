import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { activeClientRules } from '../../rules/client/index.js';
import { brokenRules, type Graded, gradeClient } from '../support/grade-client.js';
import { CLIENT_DEFECTS, type ClientDefect } from './client/defects.mjs';

/**
 * The client defect matrix: the sample client of examples/partner-client/,
 * correct, honours every client rule it exercises; with each defect of
 * client/defects.mjs composed around its fetch, it is broken on that
 * defect's rule and on no other. Every grading runs as `client -- <command>`
 * does (the bundled reference, the layer, the client as a child process),
 * several at once: they mostly wait on Retry-After.
 */
const SAMPLE = fileURLToPath(
  new URL('../../examples/partner-client/sync-orders.mjs', import.meta.url),
);
const PRELOAD = fileURLToPath(new URL('./client/preload.mjs', import.meta.url));
const AT_ONCE = 6;

const runs = new Map<string, Promise<Graded>>();

beforeAll(() => {
  const jobs: [string, () => Promise<Graded>][] = [
    ['correct', () => gradeClient([], [process.execPath, SAMPLE])],
    ...CLIENT_DEFECTS.map((defect): [string, () => Promise<Graded>] => [
      defect.name,
      () =>
        gradeClient(defect.args ?? [], [process.execPath, '--import', PRELOAD, SAMPLE], {
          CLIENT_DEFECT: defect.name,
        }),
    ]),
  ];
  const limit = limiter(AT_ONCE);
  for (const [name, job] of jobs) runs.set(name, limit(job));
});

describe('the client defect matrix', () => {
  test('every MUST client rule has one defect, and every defect breaks a MUST client rule', () => {
    const must = activeClientRules.filter((r) => r.level === 'MUST').map((r) => r.id);
    expect(CLIENT_DEFECTS.map((d) => d.rule).sort()).toEqual(must.sort());
    expect(new Set(CLIENT_DEFECTS.map((d) => d.name)).size).toBe(CLIENT_DEFECTS.length);
  });

  test('the sample client breaks no rule and exits 0; what it did not exercise says why', async () => {
    const graded = await runs.get('correct');
    expect(graded?.stderr).not.toContain('error');
    expect(brokenRules(graded?.report)).toEqual([]);
    expect(graded?.code).toBe(0);
    expect(graded?.report?.client?.exit_code).toBe(0);
    const outcomes = new Set(graded?.report?.results.map((r) => r.client?.outcome));
    expect([...outcomes].sort()).toEqual(['honoured', 'not_exercised']);
    for (const result of graded?.report?.results ?? []) {
      if (result.client?.outcome === 'not_exercised') expect(result.reason).toMatch(/no .+/);
    }
    // Every situation was played on it, each with the usual words and reworded.
    const unplayed = graded?.report?.client?.situations.filter((s) => s.state !== 'played');
    expect(unplayed).toEqual([]);
  });

  test.each(CLIENT_DEFECTS.map((d): [string, string, ClientDefect] => [d.rule, d.name, d]))(
    '%s is broken by the defect %s, and no other rule is',
    async (_rule, name, defect) => {
      const graded = await runs.get(name);
      expect(graded?.report, graded?.stderr).toBeDefined();
      expect(brokenRules(graded?.report)).toEqual([defect.rule]);
      expect(graded?.code).toBe(1);
      const result = graded?.report?.results.find((r) => r.rule_id === defect.rule);
      expect(result?.verdict).toBe('failed');
      expect(result?.evidence?.length).toBeGreaterThan(0);
    },
  );
});

/** Runs at most `n` of the jobs given to it at once, in the order given. */
function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await job();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
