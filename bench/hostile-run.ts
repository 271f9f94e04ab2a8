/**
 * `npm run bench:hostile`: conformance runs against the hostile test target
 * (test/support/hostile-target.ts: the bundled reference behind a proxy that
 * answers as an attacker's server may), in a child process as a user starts
 * it, measured from outside. Prints two tables:
 *   - leaks: for each way of writing JSON (PHP's `\/`, `\u` escapes of
 *     everything, .NET's and Gson's escapes, a random mix) with the run's
 *     credentials also echoed percent-encoded and base64 in headers, how many
 *     of the secrets the target handed out (Secret Keys, access tokens) and
 *     the run's control token any file of the report folder shows readably
 *     (test/support/leaks.ts);
 *   - memory: the peak resident memory of the run's process tree (sampled
 *     from /proc) against a target answering normally, with 200 MB after every
 *     API answer's JSON, and with no end to it.
 * BENCH_ONLY=AREAS narrows every run to those areas (`--only`); default: all.
 * BENCH_BIN: another copy's bin/conformance.js (e.g. the code before a change).
 * BENCH_PARTS=leaks or memory: one table only.
 * BENCH_TIMEOUT_MS: the runs' `--timeout` (default 60000: on a loaded machine a
 * proxied run's requests queue, and a timeout would end checks early).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type HostileOptions,
  type JsonEncoding,
  startHostileTarget,
} from '../test/support/hostile-target.js';
import { leakedSecrets } from '../test/support/leaks.js';

const BIN =
  process.env.BENCH_BIN ?? fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const ONLY = process.env.BENCH_ONLY;
const PARTS = process.env.BENCH_PARTS ?? 'leaks,memory';
const SAMPLE_MS = 100;
/** bench/process-tree-rss.ts in plain JavaScript, for a worker thread: posts the tree's RSS each sample. */
const SAMPLER = `
const { readdirSync, readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const read = (file) => { try { return readFileSync(file, 'utf8'); } catch { return ''; } };
setInterval(() => {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\\d+$/.test(entry)) continue;
    const stat = read('/proc/' + entry + '/stat');
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let total = 0;
  const queue = [workerData.pid];
  while (queue.length > 0) {
    const pid = queue.pop();
    const kb = /^VmRSS:\\s+(\\d+) kB/m.exec(read('/proc/' + pid + '/status'))?.[1];
    total += kb ? Number(kb) * 1024 : 0;
    queue.push(...(children.get(pid) ?? []));
  }
  parentPort.postMessage(total);
}, workerData.everyMs);
`;
const TIMEOUT_MS = process.env.BENCH_TIMEOUT_MS ?? '60000';

interface Run {
  code: number;
  seconds: number;
  peakMb: number;
  reportDir: string;
  stderrTail: string;
}

interface Leaks {
  keys: string;
  tokens: string;
  controlLeaked: boolean;
}

async function run(options: Omit<HostileOptions, 'controlToken'>): Promise<Run & Leaks> {
  const controlToken = randomBytes(18).toString('base64');
  const target = await startHostileTarget({ controlToken, ...options });
  // Warm the proxy and the reference first (a control request: it leaves the first API answer
  // to the run's start-up probe), so that a loaded machine's cold start does not make the
  // probe's 8 s look like an unreachable target.
  await fetch(`${target.origin}/__control/capabilities`, {
    headers: { 'x-control-token': controlToken },
  }).then((res) => res.arrayBuffer());
  const reportDir = mkdtempSync(join(tmpdir(), 'conformance-hostile-bench-'));
  try {
    const args = [
      BIN,
      '--target',
      target.origin,
      '--control-url',
      `${target.origin}/__control`,
      '--report-dir',
      reportDir,
      '--timeout',
      TIMEOUT_MS,
    ];
    if (ONLY) args.push('--only', ONLY);
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        CONTROL_TOKEN: controlToken,
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    // Sampled in a thread of its own: a scan of /proc on a busy machine takes long enough to starve
    // the hostile target, which answers on this thread.
    const sampler = new Worker(SAMPLER, {
      eval: true,
      workerData: { pid: child.pid, everyMs: SAMPLE_MS },
    });
    let peak = 0;
    sampler.on('message', (bytes: number) => {
      peak = Math.max(peak, bytes);
    });
    const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 2)));
    await sampler.terminate();
    const leaked = leakedSecrets(reportDir, [...target.issued, controlToken]);
    const share = (kind: RegExp) => {
      const all = [...target.issued].filter((s) => kind.test(s));
      return `${all.filter((s) => leaked.has(s)).length} of ${all.length}`;
    };
    return {
      code,
      seconds: (performance.now() - started) / 1000,
      peakMb: peak / 1024 / 1024,
      reportDir,
      stderrTail: stderr.split('\n').slice(-4).join('\n'),
      keys: share(/_sk_/),
      tokens: share(/_at_/),
      controlLeaked: leaked.has(controlToken),
    };
  } finally {
    await target.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

if (PARTS.includes('leaks')) {
  /** Each way of writing JSON alone, then the credentials echoed in headers (percent-encoded in both cases, base64) alone. */
  const rows: [string, JsonEncoding, boolean][] = [
    ['plain JSON', 'none', false],
    ['`/` as `\\/` (PHP)', 'slash', false],
    ['`\\u` for all but letters and digits', 'unicode', false],
    ['.NET System.Text.Json', 'dotnet', false],
    ['Gson', 'gson', false],
    ['random mix', 'mixed', false],
    ['headers: percent, base64', 'none', true],
  ];
  console.log(
    'written as | Secret Keys readable | access tokens readable | control token readable | exit | s',
  );
  for (const [label, encoding, echoCredentials] of rows) {
    const r = await run({ encoding, echoCredentials });
    console.log(
      `${label} | ${r.keys} | ${r.tokens} | ${r.controlLeaked ? 'yes' : 'no'} | ${r.code} | ${r.seconds.toFixed(1)}`,
    );
    if (r.code !== 0 && r.code !== 1) console.log(r.stderrTail);
  }
}

if (PARTS.includes('memory')) {
  console.log('bodies | peak RSS of the run (MB) | exit | s');
  const rows: [string, 'normal' | 'huge' | 'endless', boolean][] = [
    ['normal', 'normal', false],
    ['200 MB after every API answer but the start-up probe', 'huge', true],
    ['no end after every API answer but the start-up probe', 'endless', true],
    ['200 MB after every API answer', 'huge', false],
    ['no end after every API answer', 'endless', false],
  ];
  for (const [label, body, spareFirst] of rows) {
    const r = await run({ body, spareFirst, slashedSecrets: false });
    console.log(`${label} | ${r.peakMb.toFixed(0)} | ${r.code} | ${r.seconds.toFixed(1)}`);
    if (r.code !== 0 && r.code !== 1) console.log(r.stderrTail);
  }
}
