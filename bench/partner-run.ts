/**
 * `npm run bench:partner`: a full partner-mode run (one test key, no control
 * API) against the bundled reference, as a partner runs it against the
 * sandbox: the reference is started in this process, a test key is made in a
 * fresh account through its control API, and the CLI runs in a child process
 * with only that key. Prints what the run itself prints at its end (the key's
 * traffic, the rate-limit floor of that traffic and the run's ratio to it,
 * `partner_pacing` in report.json), the whole process's wall time, and the
 * 429 answers outside the rate-limit checks (there should be none). Takes
 * minutes: the documented limits, not the machine, set its pace. Extra
 * arguments go to the CLI (e.g. `-- --only TOKEN,READ`). Exits 1 when the
 * ratio is above 1.2x (a partner run may take at most a fifth longer than its
 * rate-limit floor).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../lib/reports/report-model.js';
import { startServer } from '../server/start.js';

const TARGET_RATIO = 1.2;
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));

const controlToken = randomBytes(24).toString('base64url');
const server = await startServer({ port: 0, controlToken, db: ':memory:' });
let requests429 = 0;
try {
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${server.origin}/__control${path}`, {
      method: 'POST',
      headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, string>;
  };
  const account = await control('/accounts', {});
  const key = await control(`/accounts/${account.id}/keys`, { mode: 'test' });
  const reportDir = join(mkdtempSync(join(tmpdir(), 'conformance-partner-bench-')), 'report');
  process.stderr.write(`bench: partner-mode run against the reference at ${server.origin}\n`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, '--target', server.origin, '--report-dir', reportDir, ...process.argv.slice(2)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PARTNER_ACCESS_KEY_ID: key.access_key_id,
        PARTNER_SECRET_KEY: key.secret_key,
      },
    },
  );
  const exitCode: number = await new Promise((resolve) =>
    child.on('close', (code) => resolve(code ?? 2)),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report;
  const pacing = report.partner_pacing;
  const har = JSON.parse(readFileSync(join(reportDir, 'exchanges.har'), 'utf8')) as {
    log: { entries: { pageref: string; response: { status: number } }[] };
  };
  requests429 = har.log.entries.filter(
    (e) => e.response.status === 429 && !e.pageref.startsWith('RATE-'),
  ).length;
  const ratio = pacing?.ratio;
  const out = [
    '',
    `Partner-mode run against the bundled reference: exit ${exitCode} (${report.exit_reason})`,
    `  ${pacing ? `key sent ${pacing.reads} reads, ${pacing.writes} writes, ${pacing.token_requests} token requests` : 'no partner pacing in the report'}`,
    `  rate-limit floor of that traffic     ${pacing ? `${(pacing.floor_ms / 1000).toFixed(1)} s` : '-'}`,
    `  the run's checks (report duration)   ${(report.duration_ms / 1000).toFixed(1)} s`,
    `  ratio to the floor                   ${ratio === undefined ? '-' : `${ratio.toFixed(2)}x`} (target ${TARGET_RATIO}x)`,
    `  whole process                        ${wallSeconds.toFixed(1)} s`,
    `  429 outside RATE checks (evidence)   ${requests429}`,
    `  machine                              ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `  report: ${reportDir}/report.json`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  process.exitCode = ratio !== undefined && ratio <= TARGET_RATIO && exitCode === 0 ? 0 : 1;
} finally {
  await server.close();
}
