/**
 * `npm run bench`: one full conformance run against the bundled reference
 * server, in a child process exactly as a user starts it, measured from
 * outside: wall time, peak resident memory of the whole process tree
 * (sampled from /proc) and of its largest process (/usr/bin/time), and how
 * many generated cases each property ran. Prints the figures against the
 * targets of issue 3 and exits 1 when one is missed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../lib/reports/report-model.js';
import { processTreeRss } from './process-tree-rss.js';

const TARGETS = { wallSeconds: 30, peakMb: 400, casesPerProperty: 100 };
const SAMPLE_MS = 100;
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const TIME = '/usr/bin/time';

const reportDir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
const timeFile = join(reportDir, 'time.txt');
const args = [
  BIN,
  '--report-dir',
  join(reportDir, 'report'),
  '--num-runs',
  String(TARGETS.casesPerProperty),
  ...process.argv.slice(2),
];
const useTime = existsSync(TIME);
const [command, commandArgs] = useTime
  ? [TIME, ['-f', '%M', '-o', timeFile, process.execPath, ...args]]
  : [process.execPath, args];

process.stderr.write(`bench: ${['conformance', ...args.slice(1)].join(' ')}\n`);
const started = performance.now();
const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
let peakTree = 0;
const sampler = setInterval(() => {
  if (child.pid) peakTree = Math.max(peakTree, processTreeRss(child.pid));
}, SAMPLE_MS);
const exitCode: number = await new Promise((resolve) =>
  child.on('close', (code) => resolve(code ?? 2)),
);
clearInterval(sampler);
const wallSeconds = (performance.now() - started) / 1000;

const largestProcessMb = useTime
  ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024
  : undefined;
const reportFile = join(reportDir, 'report', 'report.json');
if (!existsSync(reportFile)) {
  process.stderr.write(`bench: the run wrote no report (exit ${exitCode})\n`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
const cases = casesPerProperty(report);
const peakMb = peakTree / 1024 / 1024;

const rows: [string, string, string, boolean][] = [
  [
    'wall time',
    `${wallSeconds.toFixed(1)} s`,
    `< ${TARGETS.wallSeconds} s`,
    wallSeconds < TARGETS.wallSeconds,
  ],
  [
    'peak memory, process tree',
    `${peakMb.toFixed(0)} MB`,
    `< ${TARGETS.peakMb} MB`,
    peakMb < TARGETS.peakMb,
  ],
  [
    'generated cases per property',
    cases.properties
      ? `min ${cases.min} over ${cases.properties} properties`
      : `${report.num_runs} (configured)`,
    `>= ${TARGETS.casesPerProperty}`,
    (cases.properties ? cases.min : report.num_runs) >= TARGETS.casesPerProperty,
  ],
];
const out = [
  '',
  `Full run against the bundled reference: ${report.results.length} rules, exit ${exitCode} (${report.exit_reason})`,
  `  ${Object.entries(report.summary)
    .map(([verdict, n]) => `${verdict} ${n}`)
    .join('  ')}`,
  '',
  ...rows.map(
    ([name, value, target, ok]) =>
      `  ${name.padEnd(30)} ${value.padEnd(34)} target ${target.padEnd(10)} ${ok ? 'ok' : 'MISSED'}`,
  ),
  ...(largestProcessMb === undefined
    ? []
    : [
        `  ${'largest single process'.padEnd(30)} ${largestProcessMb.toFixed(0)} MB (/usr/bin/time)`,
      ]),
  ...(cases.short.length
    ? [`  ${'properties under target'.padEnd(30)} ${cases.short.join(', ')}`]
    : []),
  `  ${'machine'.padEnd(30)} ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  `  report: ${reportFile}`,
  '',
];
process.stdout.write(out.join('\n'));
process.exit(rows.every((row) => row[3]) ? 0 : 1);

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
