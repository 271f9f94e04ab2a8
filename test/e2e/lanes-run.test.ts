import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledChecks } from '../../lib/verdict/rule-results.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { startReferenceTarget } from './support/reference-target.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Against a target elsewhere, several files at a time, the bundled check files run in lanes
 * (lib/runner/check-lanes.ts): a vitest file per worker, which loads the files the run's plan
 * gives it. Every check file must still run, under its own name, and be judged as alone.
 */
describe('the bundled checks in lanes, against a target elsewhere', () => {
  it('runs every check file, each named as itself, none in error, and fails the rule the target breaks', async () => {
    const { origin, controlToken } = await startReferenceTarget(['cancel-twice']);
    const dir = join(emptyDir('lanes-run-'), 'report');
    const run = await runCli(
      [
        ...['--target', origin, '--control-url', `${origin}/__control`],
        // Three lanes: fewer workers than the default's eight beside the other test files.
        ...['--allow-live-orders', '--concurrency', '3', '--report-dir', dir],
      ],
      { CONTROL_TOKEN: controlToken },
    );
    expect(run.code, run.stderr).toBe(1);
    const results = readReport(dir).results;
    // The defect's rule fails (the defect matrix's own; cancelling twice breaks a few more).
    expect(results.filter((r) => r.verdict === 'failed').map((r) => r.rule_id)).toContain(
      'CANCEL-05',
    );
    expect(results.filter((r) => r.verdict === 'error')).toEqual([]);
    // Each rule's result names the check file that holds it (never a lane module), and every
    // bundled check file ran.
    const checks = bundledChecks(ROOT, 'suites/**/*.check.ts');
    for (const result of results) {
      if (checks.has(result.rule_id)) expect(result.file).toBe(checks.get(result.rule_id));
    }
    expect(new Set(results.map((r) => r.file))).toEqual(new Set(checks.values()));
  });
});
