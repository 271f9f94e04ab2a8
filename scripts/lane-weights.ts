/**
 * Writes suites/lane-weights.json: `npm run lanes:weights` (every bundled check file, about
 * five minutes), or `npm run lanes:weights -- suites/rate/reset.check.ts …` (those files only,
 * the others' weights kept).
 *
 * Two weights per file, from one run of the CLI per file (`--only` its rules) on loopback
 * through a proxy adding 50 ms of round-trip time (bench/latency-proxy.ts), against the
 * bundled reference: the seconds from its first check's start to its last check's end, and
 * the requests the reference answered once the checks began (the CLI's line of capabilities:
 * after the probe). A run of several files at a time shares the files out among its workers by
 * these (lib/plan/lanes.ts). Alone, because files side by side slow each other: their seconds
 * then tell the schedule they ran in, not the file.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLatencyProxy } from '../bench/latency-proxy.js';
import { DEFAULT_SUITES } from '../lib/config/settings.js';
import type { Report } from '../lib/reports/report-model.js';
import {
  LANE_WEIGHTS_FILE,
  type LaneWeights,
  readLaneWeights,
  withoutExtension,
} from '../lib/runner/check-lanes.js';
import { bundledChecks } from '../lib/verdict/rule-results.js';
import { buildApp } from '../server/app.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'conformance.js');
const ROUND_TRIP_MS = 50;

const rulesByFile = new Map<string, string[]>();
for (const [id, file] of bundledChecks(ROOT, DEFAULT_SUITES)) {
  rulesByFile.set(file, [...(rulesByFile.get(file) ?? []), id]);
}
const asked = process.argv.slice(2).map((file) => relative(ROOT, join(ROOT, file)));
for (const file of asked) {
  if (!rulesByFile.has(file)) throw new Error(`${file} is no bundled check file`);
}
const measured = asked.length > 0 ? asked : [...rulesByFile.keys()];

const controlToken = randomBytes(24).toString('base64url');
const app = await buildApp({ controlToken, db: ':memory:' });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const direct = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const proxy = await startLatencyProxy(direct, ROUND_TRIP_MS);
const work = mkdtempSync(join(tmpdir(), 'lane-weights-'));

const weights: LaneWeights = readLaneWeights(ROOT) ?? {
  about: '',
  roundTripMs: ROUND_TRIP_MS,
  seconds: {},
  requests: {},
};
let answered = 0;
app.server.on('request', () => {
  answered += 1;
});
try {
  for (const [i, file] of measured.entries()) {
    const { seconds, requests } = await alone(file, rulesByFile.get(file) ?? []);
    const name = withoutExtension(relative('suites', file));
    weights.seconds[name] = seconds;
    weights.requests[name] = requests;
    process.stderr.write(
      `${i + 1}/${measured.length} ${file} ${seconds.toFixed(2)} s, ${requests} requests\n`,
    );
  }
} finally {
  await proxy.close();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
// Only the bundled files of now: a file since removed is dropped.
const kept = new Set(
  [...rulesByFile.keys()].map((file) => withoutExtension(relative('suites', file))),
);
const bundled = (record: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([name]) => kept.has(name))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
const out: LaneWeights = {
  about:
    'Each bundled check file alone, through 50 ms of round-trip time against the bundled reference: the seconds its checks took and the requests they sent. A run of several files at a time shares the files out among its workers by these (lib/plan/lanes.ts). Written by `npm run lanes:weights`.',
  roundTripMs: ROUND_TRIP_MS,
  seconds: bundled(weights.seconds),
  requests: bundled(weights.requests),
};
writeFileSync(join(ROOT, LANE_WEIGHTS_FILE), `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${LANE_WEIGHTS_FILE} (${Object.keys(out.seconds).length} check files)`);

/** One run of the CLI through the proxy, with only this file's rules: its checks' seconds and requests. */
async function alone(
  file: string,
  rules: readonly string[],
): Promise<{ seconds: number; requests: number }> {
  const origin = proxy.origin;
  const reportDir = join(work, 'report');
  // Not spawnSync: the reference and the proxy answer from this process's event loop.
  const run = spawn(
    process.execPath,
    [
      BIN,
      '--target',
      origin,
      '--control-url',
      `${origin}/__control`,
      '--allow-live-orders',
      '--only',
      rules.join(','),
      '--report-dir',
      reportDir,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, CONTROL_TOKEN: controlToken },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  // The requests from the line of capabilities on: the checks', not the probe's.
  let before: number | undefined;
  let pending = '';
  run.stderr.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    if (before === undefined && /^conformance: capabilities:/m.test(pending)) before = answered;
    pending = pending.slice(pending.lastIndexOf('\n') + 1);
  });
  const [code, signal] = (await once(run, 'exit')) as [number | null, string | null];
  // 0 conforms, 1 does not: either way the checks ran.
  if (code !== 0 && code !== 1) throw new Error(`the run of ${file} ended with ${code ?? signal}`);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report;
  return {
    seconds: Math.round(checksSpan(report) * 100) / 100,
    requests: answered - (before ?? answered),
  };
}

/**
 * From the first check's start to the last check's end, in seconds: a check ends with its
 * last exchange, and started its duration before.
 */
function checksSpan(report: Report): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const result of report.results) {
    const ends = (result.evidence ?? []).map(
      (exchange) => Date.parse(exchange.startedAt) + (exchange.durationMs ?? 0),
    );
    if (ends.length === 0 || result.duration_ms === undefined) continue;
    const end = Math.max(...ends);
    first = Math.min(first, end - result.duration_ms);
    last = Math.max(last, end);
  }
  return Number.isFinite(first) ? Math.max(0, (last - first) / 1000) : 0;
}
