import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RuleResult } from '../../lib/reports/report-model.js';
import type { RunningServer } from '../../server/start.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { alone, controlServer, type Ran, run, runCurlForm } from './support/reproductions.js';

/**
 * A race replayed as a race: IDEM-10's five identical orders, which the check
 * sent at once, are sent together again (the .mjs form: each on a warm
 * connection, all but its last byte written, then all last bytes at once; the
 * curl form: one curl opening a connection for each at once). Against the
 * reference whose defect lets racing requests past the idempotency lookup,
 * every replay reproduces; against the correct reference none does.
 */
const PATIENCE = 30 * 60_000;
const RUNS = 10;

describe('a race defect reproduced', () => {
  const controlToken = randomBytes(16).toString('hex');
  const secret = { CONTROL_TOKEN: controlToken };
  const reportDir = emptyDir('repro-race-');
  let bad: RunningServer;
  let good: RunningServer;
  let result: RuleResult;

  beforeAll(async () => {
    bad = await controlServer(controlToken, ['idem-race-unserialized']);
    good = await controlServer(controlToken);
    const ran = await runCli(
      [
        ...['--target', bad.origin, '--control-url', `${bad.origin}/__control`],
        ...['--only', 'IDEM-10', '--report-dir', reportDir],
      ],
      secret,
    );
    expect(ran.code, ran.stderr).toBe(1);
    const failed = readReport(reportDir).results.find((r) => r.rule_id === 'IDEM-10');
    if (failed?.verdict !== 'failed') throw new Error('IDEM-10 did not fail');
    result = failed;
  }, PATIENCE);

  test(
    `REPRODUCED in ${RUNS} of ${RUNS} runs of each form against the defect, NOT REPRODUCED against the correct reference`,
    async () => {
      const { dir, file } = alone(reportDir, result);
      const mjs = (server: RunningServer) =>
        run(process.execPath, [file, '--target', server.origin], dir, secret);
      const curl = (server: RunningServer) =>
        runCurlForm(result, { ...secret, TARGET: server.origin });
      // One after another: each replay is a race of its own, never one beside another.
      const onBad: { form: string; ran: Ran }[] = [];
      for (let i = 0; i < RUNS; i++) {
        onBad.push({ form: 'mjs', ran: await mjs(bad) });
        onBad.push({ form: 'curl', ran: await curl(bad) });
      }
      const tally = (form: string) =>
        onBad.filter(
          (r) => r.form === form && r.ran.code === 1 && /^REPRODUCED: IDEM-10 /m.test(r.ran.out),
        ).length;
      const report = onBad.map(
        (r) =>
          `${r.form} ${r.ran.code}: ${r.ran.out
            .split('\n')
            .filter((l) => /^[A-Z ]+:/.test(l))
            .join(' | ')}`,
      );
      expect({ mjs: tally('mjs'), curl: tally('curl') }, report.join('\n')).toEqual({
        mjs: RUNS,
        curl: RUNS,
      });
      for (const ran of [await mjs(good), await curl(good)]) {
        expect(ran.out).toMatch(/^NOT REPRODUCED: IDEM-10 /m);
        expect(ran.code, ran.out).toBe(0);
      }
    },
    PATIENCE,
  );
});
