import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from './support/report-files.js';
import { emptyDir, runCli } from './support/run-cli.js';

/** The rate-limit and clock-heavy areas: windows, token age, probation all read the account clock. */
const AREAS = 'RATE,AUTH';

async function verdicts(concurrency: string): Promise<{ stderr: string; verdicts: string[] }> {
  const dir = join(emptyDir(), `concurrency-${concurrency}`);
  const result = await runCli([
    '--only',
    AREAS,
    '--seed',
    '16',
    '--concurrency',
    concurrency,
    '--report-dir',
    dir,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const report = readReport(dir);
  return {
    stderr: result.stderr,
    verdicts: report.results.map((r) => `${r.rule_id} ${r.verdict}`),
  };
}

describe('--concurrency against the bundled reference', () => {
  it('runs 4 check files at a time with the verdicts of one at a time', async () => {
    const [one, four] = await Promise.all([verdicts('1'), verdicts('4')]);
    expect(one.stderr).toContain('1 check file at a time');
    expect(four.stderr).toContain('4 check files at a time');
    // Each file has its own account: running them side by side changes no verdict.
    expect(four.verdicts).toEqual(one.verdicts);
    const passed = four.verdicts.filter((v) => v.endsWith(' passed'));
    expect(passed.length).toBeGreaterThan(10);
    expect(four.verdicts.filter((v) => /^(RATE|AUTH)-/.test(v) && !v.endsWith(' passed'))).toEqual(
      [],
    );
  });
});
