import { expect } from 'vitest';
import { readReport } from './report-files.js';

/**
 * What the report of a run of the crashing-group fixture (a group whose second check file does
 * not load) must say, whether its files ran one after another or side by side: both files'
 * rules end as `error`, as not loaded, the broken file named; none passes or vanishes.
 */
export function expectCrashedGroupReport(dir: string): void {
  const report = readReport(dir);
  expect(report.summary).toMatchObject({ passed: 0, failed: 0 });
  const broken = report.results.find((r) => r.rule_id === 'TOKEN-01');
  expect(broken).toMatchObject({
    verdict: 'error',
    file: 'test/engine/fixtures/crashing/broken.check.ts',
  });
  expect(broken?.reason).toContain('failed to load');
  // vitest runs nothing of a file whose collection failed: the file loaded before it too.
  const loadedFirst = report.results.find((r) => r.rule_id === 'TOKEN-03');
  expect(loadedFirst).toMatchObject({
    verdict: 'error',
    file: 'test/engine/fixtures/crashing-group/first.check.ts',
  });
  expect(loadedFirst?.reason).toContain('../crashing/broken.check.ts failed to load');
  // The run's errors name the check files that did not load, not the group module.
  expect(report.run_errors.map((e) => e.source).sort()).toEqual([
    'test/engine/fixtures/crashing-group/first.check.ts',
    'test/engine/fixtures/crashing/broken.check.ts',
  ]);
}
