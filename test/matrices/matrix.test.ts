import { beforeAll, describe, expect, it } from 'vitest';
import { activeRules } from '../../rules/index.js';
import { defectCases } from './cases.js';
import { type MatrixResult, runMatrix } from './run-matrix.js';

/**
 * The defect matrix: the suite run against every defective server
 * must exit 1 and fail the rule the defect breaks; against the correct server
 * it must fail nothing. No time budget: a slow or busy machine takes longer,
 * never fails (every check has its own timeout inside the engine, so a hang
 * still ends). `npm run defects:matrix` prints the wall time.
 */
const cases = defectCases();
const areas = [...new Set(activeRules.map((rule) => rule.area))];
let matrix: MatrixResult;

beforeAll(async () => {
  matrix = await runMatrix();
});

describe('the suite fails every defective server by the rule it breaks', () => {
  it.each(cases.filter((c) => c.caughtAs === 'failed'))(
    '$defect breaks $rule',
    ({ defect, rule }) => {
      const result = matrix.defects.find((d) => d.defect === defect);
      expect(result?.run.problem ?? '').toBe('');
      expect({
        exit: result?.run.exitCode,
        brokenRuleFailed: result?.run.failed.includes(rule),
      }).toEqual({
        exit: 1,
        brokenRuleFailed: true,
      });
    },
  );
});

describe('the suite warns on a broken SHOULD or DIALECT rule, and never fails the run for it', () => {
  it.each(cases.filter((c) => c.caughtAs === 'warning'))(
    '$defect breaks $rule',
    ({ defect, rule }) => {
      const result = matrix.defects.find((d) => d.defect === defect);
      expect(result?.run.problem ?? '').toBe('');
      expect({
        verdict: result?.run.verdicts[rule],
        brokenRuleFailed: result?.run.failed.includes(rule),
      }).toEqual({
        verdict: 'warning',
        brokenRuleFailed: false,
      });
    },
  );
});

describe('the suite fails nothing of the correct server', () => {
  it.each(areas)('%s', (area) => {
    const result = matrix.baseline.find((b) => b.run.area === area);
    expect(result?.run.failed).toEqual([]);
    expect(result?.run.exitCode).toBe(0);
    // Every rule of the area was checked and held: none unchecked (a check file left out), none errored.
    const unclean = Object.entries(result?.run.verdicts ?? {}).filter(
      ([, verdict]) => verdict !== 'passed' && verdict !== 'warning',
    );
    expect(unclean).toEqual([]);
    expect(Object.keys(result?.run.verdicts ?? {}).length).toBe(
      activeRules.filter((rule) => rule.area === area).length,
    );
  });
});
