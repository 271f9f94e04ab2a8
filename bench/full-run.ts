/**
 * `npm run bench`: full conformance runs against the bundled reference
 * server, in a child process exactly as a user starts it, measured from
 * outside: wall time, peak resident memory of the whole process tree
 * (sampled from /proc) and of its largest process (/usr/bin/time), and how
 * many generated cases each property ran. Prints where a run's time goes,
 * as medians over BENCH_ROUNDS rounds (default 3):
 *   - Node's own start (`node -e 0`) and the CLI's start-up (`conformance
 *     --help`: tsx, vitest, undici, zod, every module of the engine);
 *   - starting the reference server (import and listen, in this process);
 *   - the checks, area by area (sums of the checks' own durations);
 *   - writing the reports (report.json rendered again into every format);
 *   - the rest: vitest's start, its worker, each check file's module load;
 * beside the floor: the requests a run sends, counted by a reference that
 * the same run targets (`--target`, files one at a time as against the
 * embedded reference), and the CPU time that reference spends answering them
 * (its event loop answers one at a time). That reference runs in a process
 * of its own, started anew for each round's floor, as the embedded run starts
 * its own (bench/floor-reference.ts). The first figure
 * printed is the ratio of the two, the full run's wall time against its
 * floor, each round's run against that round's floor, with the machine's
 * load while the bench ran: seconds do not travel between machines, the
 * ratio does.
 * With BENCH_LATENCY_MS (e.g. 50), one more such run goes through an
 * in-process proxy adding that round-trip time (bench/latency-proxy.ts),
 * and its wall time is printed beside the loopback run's.
 * BENCH_LATENCY_ONLY=1 (with BENCH_LATENCY_MS) measures only that: the
 * loopback run and the run through the proxy, one after the other, in each
 * of BENCH_ROUNDS rounds, and prints their medians and the ratio of each
 * round's pair (both measured under the same load).
 * Start-up (a first request within a second): the time from the process's start to its first
 * request and to the checks' first API request (the floor run: its reference
 * sees them; the checks' first is the first after the CLI
 * announces the run), a one-rule run's wall and CPU time (`--only TOKEN-01`),
 * and where a full run's CPU goes: one more run under `--cpu-prof`,
 * summarised per module group (bench/cpu-profile.ts).
 * BENCH_BEFORE=/path/to/other/bin/conformance.js: the same figures for
 * another copy of the suite (e.g. `git archive` of main beside this
 * checkout's node_modules), its runs alternating with this one's, so that
 * before and after are measured under the same load.
 * Prints the figures against their targets (TARGETS: wall time, peak memory, first request,
 * cases per property, the latency ratio) and exits
 * 1 when one is missed.
 */
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_CONCURRENCY } from '../lib/plan/concurrency.js';
import type { Report } from '../lib/reports/report-model.js';
import { VERDICTS } from '../lib/verdict/words.js';
import { type ProfileSummary, summariseProfiles } from './cpu-profile.js';
import type { FloorMessage } from './floor-reference.js';
import { startLatencyProxy } from './latency-proxy.js';
import { processTreeRss } from './process-tree-rss.js';

const TARGETS = {
  /** The full run's wall time against its floor: what travels between machines (absolute seconds do not). */
  floorRatio: 2.5,
  peakMb: 232,
  casesPerProperty: 100,
  firstRequestSeconds: 1,
  latencyRatio: 1.3,
};
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** BENCH_LATENCY_MS=50: one more run, through an in-process proxy adding this round-trip time. */
const LATENCY_MS = Math.max(0, Number(process.env.BENCH_LATENCY_MS ?? 0));
/** BENCH_LATENCY_ONLY=1: only the loopback and latency runs (needs BENCH_LATENCY_MS). */
const LATENCY_ONLY = process.env.BENCH_LATENCY_ONLY === '1' && LATENCY_MS > 0;
const SAMPLE_MS = 100;
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const FLOOR_REFERENCE = fileURLToPath(new URL('./floor-reference.ts', import.meta.url));
/** BENCH_BEFORE: another copy's bin/conformance.js, measured alternately with this one. */
const BEFORE = process.env.BENCH_BEFORE;
const TIME = '/usr/bin/time';
/**
 * Node's flags as `npm run conformance` passes them (package.json), so the figures are that
 * command's: none (bin/conformance.js sets its V8 flags itself, so that `npx` runs
 * the same).
 */
const NODE_ARGS: string[] = [];
const extraArgs = process.argv.slice(2);
/**
 * Every run's folder (its reports, its CPU profiles) lies in one folder of this bench's; at the
 * end only the runs whose reports are printed are kept (a full run's reports are ~14 MB, and a
 * bench makes a dozen runs).
 */
const BENCH_DIR = mkdtempSync(join(tmpdir(), 'conformance-bench-'));

/**
 * The machine's load while the bench ran: the one-minute load average every five seconds
 * (other work on a shared machine slows every figure; the ratio is printed beside it).
 */
const loads: number[] = [loadavg()[0] as number];
setInterval(() => loads.push(loadavg()[0] as number), 5000).unref();
function loadWords(): string {
  const mean = loads.reduce((sum, l) => sum + l, 0) / loads.length;
  return `${cpus().length} cores, load average ${mean.toFixed(1)} (${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}) while it ran`;
}

interface RunFigures {
  wallSeconds: number;
  /** User and system CPU of the whole process, every thread (/usr/bin/time). */
  cpuSeconds?: number;
  peakTreeMb: number;
  largestProcessMb?: number;
  /** Seconds from the spawn to the CLI's announcing the run (its "capabilities:" line): the checks start. */
  announcedSeconds?: number;
  exitCode: number;
  report: Report;
  reportFile: string;
}

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Which copy of the suite (default this checkout's). */
  bin?: string;
  /** Node's own flags, e.g. --cpu-prof. */
  nodeArgs?: readonly string[];
}

/** One conformance run in a child process, measured from outside. */
async function conformanceRun(
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunFigures> {
  const reportDir = mkdtempSync(join(BENCH_DIR, 'run-'));
  const timeFile = join(reportDir, 'time.txt');
  const all = [
    ...NODE_ARGS,
    ...(options.nodeArgs ?? []),
    options.bin ?? BIN,
    '--report-dir',
    join(reportDir, 'report'),
    '--num-runs',
    String(TARGETS.casesPerProperty),
    ...args,
  ];
  const useTime = existsSync(TIME);
  const [command, commandArgs] = useTime
    ? [TIME, ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...all]]
    : [process.execPath, all];
  const started = performance.now();
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let announcedSeconds: number | undefined;
  let pending = '';
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    pending += chunk.toString();
    if (announcedSeconds === undefined && /^conformance: capabilities:/m.test(pending))
      announcedSeconds = (performance.now() - started) / 1000;
    pending = pending.slice(pending.lastIndexOf('\n') + 1);
  });
  let peakTree = 0;
  const sampler = setInterval(() => {
    if (child.pid) peakTree = Math.max(peakTree, processTreeRss(child.pid));
  }, SAMPLE_MS);
  const exitCode: number = await new Promise((resolve) =>
    child.on('close', (code) => resolve(code ?? 2)),
  );
  clearInterval(sampler);
  const wallSeconds = (performance.now() - started) / 1000;
  const reportFile = join(reportDir, 'report', 'report.json');
  if (!existsSync(reportFile)) {
    process.stderr.write(`bench: the run wrote no report (exit ${exitCode})\n`);
    process.exit(2);
  }
  const time = useTime
    ? (readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number)
    : [];
  const [maxRssKb, user, system] = time;
  return {
    wallSeconds,
    ...(user !== undefined && system !== undefined ? { cpuSeconds: user + system } : {}),
    peakTreeMb: peakTree / 1024 / 1024,
    ...(maxRssKb !== undefined ? { largestProcessMb: maxRssKb / 1024 } : {}),
    ...(announcedSeconds !== undefined ? { announcedSeconds } : {}),
    exitCode,
    report: JSON.parse(readFileSync(reportFile, 'utf8')) as Report,
    reportFile,
  };
}

/** Wall seconds of a short child process. */
async function processSeconds(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return (performance.now() - started) / 1000;
}

/**
 * The floor: the same run against a reference in a process of its own, started anew for each
 * floor run (bench/floor-reference.ts), which counts the requests it answers and the CPU time
 * it spends on them (that process does nothing else meanwhile).
 */
async function floorRun(
  rttMs = 0,
  bin = BIN,
  /** `--concurrency`: the embedded run's for its floor; none: the CLI's own choice for a target elsewhere. */
  concurrency?: number,
): Promise<{
  requests: number;
  busySeconds: number;
  wallSeconds: number;
  peakTreeMb: number;
  /** Seconds from the spawn to the first request the reference saw. */
  firstRequestSeconds: number;
  /** Seconds from the spawn to the checks' first request to the API (the first after the run is announced). */
  firstCheckSeconds: number;
  report: Report;
  reportFile: string;
}> {
  // With this process's Node flags (tsx's loader among them), as the reference ran in it before.
  const reference = fork(FLOOR_REFERENCE, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => reference.once('exit', () => resolve()));
  // Its messages come in their order, each asked for before it can come: `listening` as it
  // starts, `counted` once told to stop.
  const next = async <K extends FloorMessage['kind']>(
    kind: K,
  ): Promise<Extract<FloorMessage, { kind: K }>> => {
    const message = await Promise.race([
      once(reference, 'message').then(([sent]) => sent as FloorMessage),
      exited.then(() => {
        throw new Error(`the floor's reference exited before it sent "${kind}"`);
      }),
    ]);
    if (message.kind !== kind) {
      throw new Error(`the floor's reference sent "${message.kind}", not "${kind}"`);
    }
    return message as Extract<FloorMessage, { kind: K }>;
  };
  try {
    const { origin: direct, controlToken } = await next('listening');
    const proxy = rttMs > 0 ? await startLatencyProxy(direct, rttMs) : undefined;
    const origin = proxy?.origin ?? direct;
    try {
      reference.send('start');
      const spawnedAt = performance.timeOrigin + performance.now();
      const run = await conformanceRun(
        [
          '--target',
          origin,
          '--control-url',
          `${origin}/__control`,
          '--allow-live-orders',
          ...(concurrency === undefined ? [] : ['--concurrency', String(concurrency)]),
          ...extraArgs,
        ],
        { env: { CONTROL_TOKEN: controlToken }, bin },
      );
      reference.send('stop');
      const counted = await next('counted');
      const announced = run.announcedSeconds ?? 0;
      const after = (at: number) => (at - spawnedAt) / 1000;
      return {
        requests: counted.requests,
        busySeconds: counted.busySeconds,
        wallSeconds: run.wallSeconds,
        peakTreeMb: run.peakTreeMb,
        firstRequestSeconds:
          counted.arrivals[0] === undefined ? Number.NaN : after(counted.arrivals[0]),
        // The API, not the control API: accounts made ahead go out as soon as the run is announced.
        firstCheckSeconds:
          counted.apiArrivals.map(after).find((at) => at >= announced) ?? Number.NaN,
        report: run.report,
        reportFile: run.reportFile,
      };
    } finally {
      await proxy?.close();
    }
  } finally {
    if (reference.exitCode === null && reference.signalCode === null) reference.kill();
    await exited;
  }
}

/** Reference start as the CLI does it when given no target: import, build, listen, in this process. */
async function referenceStartSeconds(): Promise<number> {
  const started = performance.now();
  const { startServer } = await import('../server/start.js');
  const server = await startServer({
    controlToken: randomBytes(24).toString('base64url'),
    db: ':memory:',
  });
  const seconds = (performance.now() - started) / 1000;
  await server.close();
  return seconds;
}

/** Writing every report format from a finished run's report.json (what the CLI does at its end). */
async function reportWritingSeconds(report: Report): Promise<number> {
  const started = performance.now();
  const { writeReports } = await import('../lib/reports/write-reports.js');
  const { SafetyNet } = await import('../lib/reports/safety-net.js');
  await writeReports(
    report,
    mkdtempSync(join(BENCH_DIR, 'reports-')),
    new SafetyNet({ keyPrefix: 'odp' }),
  );
  return (performance.now() - started) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const s = (seconds: number) => `${seconds.toFixed(2)} s`;

if (LATENCY_ONLY) await latencyOnly();

/** This checkout's suite, and with BENCH_BEFORE the other copy, measured alternately. */
const copies: [string, string][] = BEFORE
  ? [
      ['after', BIN],
      ['before', BEFORE],
    ]
  : [['', BIN]];

interface CopyRound {
  cliStart: number;
  oneRule: RunFigures;
  run: RunFigures;
  floor: Awaited<ReturnType<typeof floorRun>>;
}

process.stderr.write(
  `bench: ${ROUNDS} rounds of conformance ${extraArgs.join(' ')} (embedded reference)${BEFORE ? `, alternating with ${BEFORE}` : ''}\n`,
);
const referenceStart = await referenceStartSeconds();
const rounds: { node: number; reports: number; copies: CopyRound[] }[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  process.stderr.write(`bench: round ${round} of ${ROUNDS}\n`);
  const node = await processSeconds(['-e', '0']);
  const measured: CopyRound[] = [];
  for (const [, bin] of copies) {
    const cliStart = await processSeconds([bin, '--help']);
    const oneRule = await conformanceRun(['--only', 'TOKEN-01'], { bin });
    const run = await conformanceRun(extraArgs, { bin });
    // The same run (files one at a time, as against the embedded reference) against a reference
    // in a process of its own, which counts the requests and its CPU time answering them: the floor.
    const floor = await floorRun(0, bin, EMBEDDED_CONCURRENCY);
    measured.push({ cliStart, oneRule, run, floor });
  }
  const reports = await reportWritingSeconds((measured[0] as CopyRound).run.report);
  rounds.push({ node, reports, copies: measured });
}

// Where a full run's CPU goes: one more run of each copy under V8's profiler (every thread).
const profiles: ProfileSummary[] = [];
for (const [, bin] of copies) {
  const dir = mkdtempSync(join(BENCH_DIR, 'profile-'));
  // The directory after '=': worker threads inherit Node's flags and refuse a lone value.
  await conformanceRun(extraArgs, { bin, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  profiles.push(summariseProfiles(dir));
}

const latency = LATENCY_MS > 0 ? await floorRun(LATENCY_MS) : undefined;

const mine = (r: (typeof rounds)[number]) => r.copies[0] as CopyRound;
const last = mine(rounds[rounds.length - 1] as (typeof rounds)[number]);
const report = last.run.report;
const wallSeconds = median(rounds.map((r) => mine(r).run.wallSeconds));
const peakMb = Math.max(...rounds.map((r) => mine(r).run.peakTreeMb));
const largest = rounds.map((r) => mine(r).run.largestProcessMb).filter((mb) => mb !== undefined);
const cases = casesPerProperty(report);
const areas = [...new Set(report.results.map((r) => r.area))];
const areaSeconds = areas.map((area): [string, number] => [
  area,
  median(
    rounds.map(
      (r) =>
        mine(r)
          .run.report.results.filter((result) => result.area === area)
          .reduce((sum, result) => sum + (result.duration_ms ?? 0), 0) / 1000,
    ),
  ),
]);
const checksSeconds = areaSeconds.reduce((sum, [, seconds]) => sum + seconds, 0);
/** The report's duration: vitest and its worker started, every check file, vitest stopped (a file's checks overlap). */
const checksWall = median(rounds.map((r) => mine(r).run.report.duration_ms / 1000));
const node = median(rounds.map((r) => r.node));
const cliStart = median(rounds.map((r) => mine(r).cliStart));
const reports = median(rounds.map((r) => r.reports));
const rest = wallSeconds - checksWall - reports;
const requests = median(rounds.map((r) => mine(r).floor.requests));
const busy = median(rounds.map((r) => mine(r).floor.busySeconds));
const firstRequest = median(rounds.map((r) => mine(r).floor.firstRequestSeconds));
const sameAsLast = rounds.every((r) => sameVerdicts(mine(r).run.report, report));

/** The full run's wall time against the floor measured in the same round (same load). */
const ratioOf = (c: CopyRound) => c.run.wallSeconds / c.floor.busySeconds;
const ratios = rounds.map((r) => ratioOf(mine(r)));
const ratio = median(ratios);
const rows: [string, string, string, boolean][] = [
  [
    'full run wall / floor (median)',
    `${ratio.toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    `<= ${TARGETS.floorRatio}x`,
    ratio <= TARGETS.floorRatio,
  ],
  [
    'peak memory, process tree',
    `${peakMb.toFixed(0)} MB`,
    `<= ${TARGETS.peakMb} MB`,
    peakMb <= TARGETS.peakMb,
  ],
  [
    'first request after start',
    `${firstRequest.toFixed(2)} s (median)`,
    `< ${TARGETS.firstRequestSeconds} s`,
    firstRequest < TARGETS.firstRequestSeconds,
  ],
  [
    'generated cases per property',
    cases.properties
      ? `min ${cases.min} over ${cases.properties} properties`
      : `${report.num_runs} (configured)`,
    `>= ${TARGETS.casesPerProperty}`,
    (cases.properties ? cases.min : report.num_runs) >= TARGETS.casesPerProperty,
  ],
  ['same verdicts every round', sameAsLast ? 'yes' : 'NO', 'yes', sameAsLast],
];
const line = (name: string, value: string) => `  ${name.padEnd(40)} ${value}`;
/** A figure per copy (after, before), medians over the rounds. */
const perCopy = (name: string, figure: (c: CopyRound) => number | undefined, unit = 's') =>
  line(
    name,
    copies
      .map(([label], index) => {
        const values = rounds
          .map((r) => figure(r.copies[index] as CopyRound))
          .filter((v): v is number => v !== undefined && !Number.isNaN(v));
        const value = values.length ? `${median(values).toFixed(2)} ${unit}` : 'n/a';
        return label ? `${label} ${value}` : value;
      })
      .join(', '),
  );
const profileLines = profiles.flatMap((profile, index) => [
  `  ${copies[index]?.[0] || 'this copy'}: ${(profile.busyMs / 1000).toFixed(1)} CPU-s sampled on ${profile.threads} threads`,
  ...profile.groups.map(([group, ms]) =>
    line(
      `    ${group}`,
      `${(ms / 1000).toFixed(2)} s  ${((100 * ms) / profile.busyMs).toFixed(0)}%`,
    ),
  ),
]);
const out = [
  '',
  `Ratio: the full run took ${ratio.toFixed(2)}x its floor (target ${TARGETS.floorRatio}x): ${wallSeconds.toFixed(1)} s wall, the reference's own CPU time answering its ${Math.round(requests)} requests ${busy.toFixed(2)} s (medians of ${ROUNDS})`,
  `  machine: ${loadWords()}`,
  ...(BEFORE
    ? [
        line(
          '  before (BENCH_BEFORE), same rounds',
          `${median(rounds.map((r) => ratioOf(r.copies[1] as CopyRound))).toFixed(2)}x`,
        ),
      ]
    : []),
  '',
  `Full run against the bundled reference: ${report.results.length} rules, exit ${last.run.exitCode} (${report.exit_reason})`,
  `  ${VERDICTS.map((verdict) => `${verdict} ${report.summary[verdict]}`).join('  ')}`,
  `  outcome ${report.summary.outcome}, verified ${report.summary.coverage.must_verified} of ${report.summary.coverage.must_total} MUST rules`,
  '',
  ...rows.map(
    ([name, value, target, ok]) =>
      `  ${name.padEnd(30)} ${value.padEnd(34)} target ${target.padEnd(10)} ${ok ? 'ok' : 'MISSED'}`,
  ),
  ...(largest.length
    ? [
        `  ${'largest single process'.padEnd(30)} ${Math.max(...(largest as number[])).toFixed(0)} MB (/usr/bin/time, peak RSS)`,
      ]
    : []),
  ...(cases.short.length
    ? [`  ${'properties under target'.padEnd(30)} ${cases.short.join(', ')}`]
    : []),
  '',
  `Start-up and CPU (medians of ${ROUNDS}${BEFORE ? '; before and after measured alternately' : ''}):`,
  perCopy('first request (--target run)', (c) => c.floor.firstRequestSeconds),
  perCopy("checks' first API request (--target run)", (c) => c.floor.firstCheckSeconds),
  perCopy('one rule (--only TOKEN-01), wall', (c) => c.oneRule.wallSeconds),
  perCopy('one rule, CPU (user + system)', (c) => c.oneRule.cpuSeconds),
  perCopy('full run, wall / floor', (c) => ratioOf(c), 'x'),
  perCopy('full run, wall', (c) => c.run.wallSeconds),
  perCopy('full run, CPU (user + system)', (c) => c.run.cpuSeconds),
  perCopy('full run, peak memory (tree)', (c) => c.run.peakTreeMb, 'MB'),
  '',
  'CPU profile of a full run (--cpu-prof, self time by module group; Node internals and V8 builtins count for their caller):',
  ...profileLines,
  '',
  `Where the time goes (medians of ${ROUNDS}):`,
  line('Node start (node -e 0)', s(node)),
  line('CLI start-up (conformance --help)', `${s(cliStart)} (Node included)`),
  line('reference start (import, listen)', s(referenceStart)),
  line('checks, vitest started to stopped (wall)', s(checksWall)),
  line('  sum of their durations', `${s(checksSeconds)} (side by side: more than their wall time)`),
  ...areaSeconds.map(([area, seconds]) => line(`    ${area}`, s(seconds))),
  line('report writing (every format)', s(reports)),
  line('before the checks (CLI start, reference start, probe) and exit', s(rest)),
  line('whole process', s(wallSeconds)),
  '',
  'Floor (the same run against a reference in the bench process):',
  line('requests sent', String(Math.round(requests))),
  line(
    'reference CPU time answering them',
    `${s(busy)} (${Math.round(requests / busy)} requests/s)`,
  ),
  line(
    'full run wall / floor',
    `${ratio.toFixed(2)}x (the --target run itself: ${(median(rounds.map((r) => mine(r).floor.wallSeconds)) / busy).toFixed(2)}x)`,
  ),
  ...(latency
    ? [
        '',
        `Through a proxy adding ${LATENCY_MS} ms of round-trip time (BENCH_LATENCY_MS):`,
        line('wall', s(latency.wallSeconds)),
        line(
          'against the loopback run (--target)',
          `${(latency.wallSeconds / median(rounds.map((r) => mine(r).floor.wallSeconds))).toFixed(1)}x (target ${TARGETS.latencyRatio}x)`,
        ),
        line('same verdicts', sameVerdicts(latency.report, last.floor.report) ? 'yes' : 'NO'),
        '  slowest check files (sum of the durations of their checks, which overlap on accounts of their own):',
        ...slowestFiles(latency.report, 6).map(([file, seconds, slowest]) =>
          line(`    ${file}`, `${s(seconds)} (longest check ${slowest})`),
        ),
        `  report: ${latency.reportFile}`,
      ]
    : []),
  '',
  `  ${'machine'.padEnd(30)} ${loadWords()}`,
  `  report: ${last.run.reportFile}`,
  '',
];
process.stdout.write(out.join('\n'));
keepOnly([last.run.reportFile, ...(latency ? [latency.reportFile] : [])]);
process.exit(rows.every((row) => row[3]) ? 0 : 1);

/**
 * BENCH_LATENCY_ONLY: in each round, the run on loopback then the run through
 * the proxy, so that each ratio compares two runs made under the same load.
 */
async function latencyOnly(): Promise<never> {
  process.stderr.write(
    `bench: ${ROUNDS} rounds of a loopback run and a run through ${LATENCY_MS} ms of round-trip time\n`,
  );
  const pairs: [Awaited<ReturnType<typeof floorRun>>, Awaited<ReturnType<typeof floorRun>>][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`bench: round ${round} of ${ROUNDS}\n`);
    pairs.push([await floorRun(), await floorRun(LATENCY_MS)]);
  }
  const ratios = pairs.map(([loop, far]) => far.wallSeconds / loop.wallSeconds);
  const same = pairs.every(([loop, far]) => sameVerdicts(loop.report, far.report));
  const [, lastFar] = pairs[pairs.length - 1] as (typeof pairs)[number];
  const ok = median(ratios) <= TARGETS.latencyRatio && same;
  const out = [
    '',
    `Ratio: through ${LATENCY_MS} ms of round-trip time a full run took ${median(ratios).toFixed(2)}x the loopback run (target ${TARGETS.latencyRatio}x; median of ${ROUNDS} pairs)`,
    `  machine: ${loadWords()}`,
    '',
    `Loopback (--target) against a proxy adding ${LATENCY_MS} ms of round-trip time, ${ROUNDS} rounds:`,
    line2('loopback wall', pairs.map(([loop]) => s(loop.wallSeconds)).join(', ')),
    line2('through the proxy', pairs.map(([, far]) => s(far.wallSeconds)).join(', ')),
    line2(
      'peak memory (loopback, proxy)',
      pairs
        .map(([loop, far]) => `${loop.peakTreeMb.toFixed(0)}/${far.peakTreeMb.toFixed(0)} MB`)
        .join(', '),
    ),
    line2(
      'ratio (median)',
      `${median(ratios).toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(', ')}); target ${TARGETS.latencyRatio}x ${median(ratios) <= TARGETS.latencyRatio ? 'ok' : 'MISSED'}`,
    ),
    line2('same verdicts', same ? 'yes' : 'NO'),
    line2('requests sent (loopback)', String(pairs[0]?.[0].requests ?? 0)),
    '  slowest check files through the proxy (sum of the durations of their checks, which overlap on accounts of their own):',
    ...slowestFiles(lastFar.report, 6).map(([file, seconds, slowest]) =>
      line2(`    ${file}`, `${s(seconds)} (longest check ${slowest})`),
    ),
    `  report: ${lastFar.reportFile}`,
    `  ${'machine'.padEnd(30)} ${loadWords()}`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  keepOnly([lastFar.reportFile]);
  process.exit(ok ? 0 : 1);
}

/** Removes every run's folder in BENCH_DIR but those holding the printed reports. */
function keepOnly(reportFiles: readonly string[]): void {
  const kept = new Set(reportFiles.map((file) => relative(BENCH_DIR, file).split('/')[0]));
  for (const name of readdirSync(BENCH_DIR)) {
    if (!kept.has(name)) rmSync(join(BENCH_DIR, name), { recursive: true, force: true });
  }
}

function line2(name: string, value: string): string {
  return `  ${name.padEnd(40)} ${value}`;
}

/** The check files whose checks took longest in sum, with each one's longest check. */
function slowestFiles(run: Report, count: number): [string, number, string][] {
  const files = new Map<string, { ms: number; longest: [string, number] }>();
  for (const result of run.results) {
    const file = result.file ?? '(unknown file)';
    const ms = result.duration_ms ?? 0;
    const entry = files.get(file) ?? { ms: 0, longest: [result.rule_id, -1] };
    entry.ms += ms;
    if (ms > entry.longest[1]) entry.longest = [result.rule_id, ms];
    files.set(file, entry);
  }
  return [...files]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, count)
    .map(([file, { ms, longest }]) => [
      file.replace(/^suites\//, ''),
      ms / 1000,
      `${longest[0]} ${s(longest[1] / 1000)}`,
    ]);
}

/** Whether two runs gave every rule the same verdict. */
function sameVerdicts(a: Report, b: Report): boolean {
  const verdicts = (run: Report) => run.results.map((r) => `${r.rule_id} ${r.verdict}`).join('\n');
  return verdicts(a) === verdicts(b);
}

/**
 * How many cases each property ran, from the checks' notes ("property held
 * for N generated inputs") and counterexamples (a failing property stops
 * early by design: it is not counted short).
 */
function casesPerProperty(run: Report): { min: number; properties: number; short: string[] } {
  const counts: [string, number][] = [];
  for (const result of run.results) {
    for (const note of result.notes ?? []) {
      const runs = /property held for (\d+) generated inputs/.exec(note)?.[1];
      if (runs) counts.push([result.rule_id, Number(runs)]);
    }
  }
  return {
    min: counts.length ? Math.min(...counts.map(([, n]) => n)) : 0,
    properties: counts.length,
    short: counts.filter(([, n]) => n < TARGETS.casesPerProperty).map(([id, n]) => `${id} (${n})`),
  };
}
