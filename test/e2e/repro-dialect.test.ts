import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/reports/report-model.js';
import type { RunningServer } from '../../server/start.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { controlServer, counts, run } from './support/reproductions.js';

/**
 * `node --test repro/` goes green on any conforming server, also one that
 * reads the document another legal way: the reproductions of warnings
 * (DIALECT and SHOULD readings) are in repro/warnings/, apart. A server in the
 * acme dialect (test/dialects/acme.json) with a defect is certified; its
 * report has a MUST failure and warnings; against the correct reference in
 * the same dialect every reproduction of repro/ passes, and the warnings'
 * still show where they are.
 */
const PATIENCE = 30 * 60_000;
const PROFILE = join(process.cwd(), 'test', 'dialects', 'acme.json');

describe('reproductions of a dialect server with warnings', () => {
  const controlToken = randomBytes(16).toString('hex');
  const secret = { CONTROL_TOKEN: controlToken };
  const reportDir = emptyDir('repro-dialect-');
  let bad: RunningServer;
  let good: RunningServer;
  let report: Report;

  beforeAll(async () => {
    const profile = JSON.parse(readFileSync(PROFILE, 'utf8')) as unknown;
    bad = await controlServer(controlToken, ['cancel-twice'], { profile });
    good = await controlServer(controlToken, [], { profile });
    const ran = await runCli(
      [
        ...['--target', bad.origin, '--control-url', `${bad.origin}/__control`],
        ...['--profile', PROFILE, '--only', 'ORDER,CANCEL', '--report-dir', reportDir],
      ],
      secret,
    );
    expect(ran.code, ran.stderr).toBe(1);
    report = readReport(reportDir);
  }, PATIENCE);

  test('failures in repro/, warnings in repro/warnings/', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => r.rule_id);
    const warned = report.results.filter((r) => r.verdict === 'warning').map((r) => r.rule_id);
    // The defect breaks CANCEL-05 (and the second cancel of CANCEL-01).
    expect(failed).toContain('CANCEL-05');
    expect(warned.length).toBeGreaterThan(0);
    const top = readdirSync(join(reportDir, 'repro')).filter((f) => f.endsWith('.mjs'));
    expect(top.sort()).toEqual([...failed.map((rule) => `${rule}.mjs`), 'test.mjs'].sort());
    for (const rule of warned)
      expect(existsSync(join(reportDir, 'repro', 'warnings', `${rule}.mjs`)), rule).toBe(true);
  });

  test(
    'node --test repro/: red on the server with the defect, green on the correct reference of the dialect',
    async () => {
      const on = (server: RunningServer, entry = 'repro/') =>
        run(process.execPath, ['--test', entry], reportDir, {
          ...secret,
          TARGET_BASE_URL: server.origin,
        });
      const failed = report.results.filter((r) => r.verdict === 'failed').length;
      const onBad = await on(bad);
      expect(counts(onBad.out), onBad.out).toMatchObject({ pass: 0, fail: failed });
      const onGood = await on(good);
      expect(counts(onGood.out), onGood.out).toMatchObject({ pass: failed, fail: 0 });
      expect(onGood.code, onGood.out).toBe(0);
      // The dialect's own readings still show, where a team reviews them: not in its test gate.
      const warnings = await on(good, 'repro/warnings/all.mjs');
      expect(counts(warnings.out).fail, warnings.out).toBeGreaterThan(0);
    },
    PATIENCE,
  );
});
