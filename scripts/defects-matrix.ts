/**
 * `npm run defects:matrix [-- --repeat N] [--concurrency N] [--defect NAME,…]`:
 * runs the defect matrix (test/matrices/) and writes docs/detection-matrix.md.
 * With --repeat, runs it N times in a row and reports whether the verdicts
 * were identical. A run limited with --defect prints its results and leaves
 * the document alone (it would describe only part of the catalogue).
 * Exit 0 only when every defect was caught by its rule, the correct server
 * was clean in every area, and every repeat agreed.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFECT_NAMES } from '../server/defects/catalogue.js';
import { renderMatrix } from '../test/matrices/render-markdown.js';
import { DEFAULT_CONCURRENCY, type MatrixResult, runMatrix } from '../test/matrices/run-matrix.js';
import { compareRuns } from '../test/matrices/stability.js';

const USAGE =
  'usage: npm run defects:matrix -- [--repeat N] [--concurrency N] [--defect NAME[,NAME…]]';

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    process.stderr.write(
      `defects:matrix: --${name} must be a whole number of at least 1\n${USAGE}\n`,
    );
    process.exit(2);
  }
  return Number(value);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      repeat: { type: 'string' },
      concurrency: { type: 'string' },
      defect: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}
try {
  parsed = parse();
} catch (error) {
  process.stderr.write(`defects:matrix: ${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const repeat = positive('repeat', parsed.values.repeat, 1);
const concurrency = positive('concurrency', parsed.values.concurrency, DEFAULT_CONCURRENCY);
const only = parsed.values.defect?.flatMap((value) => value.split(',')).filter(Boolean);
const unknown = (only ?? []).filter((name) => !(DEFECT_NAMES as readonly string[]).includes(name));
if (unknown.length > 0) {
  process.stderr.write(
    `defects:matrix: no such defect: ${unknown.join(', ')} (server/defects/ names every defect)\n`,
  );
  process.exit(2);
}

const results: MatrixResult[] = [];
for (let n = 1; n <= repeat; n++) {
  process.stderr.write(`matrix run ${n} of ${repeat}\n`);
  const result = await runMatrix({
    concurrency,
    ...(only ? { defects: only, skipBaseline: true } : {}),
    onRun: (done, total, label, run) => {
      const failed = run.failed.join(' ') || '-';
      process.stderr.write(
        `  [${done}/${total}] ${label}: exit ${run.exitCode}, failed ${failed} (${(run.durationMs / 1000).toFixed(1)} s)\n`,
      );
    },
  });
  results.push(result);
}

const instabilities = compareRuns(results);
const markdown = renderMatrix({ results, instabilities });
if (only) {
  process.stdout.write(`${markdown}\n`);
} else {
  writeFileSync(new URL('../docs/detection-matrix.md', import.meta.url), markdown);
  process.stdout.write('wrote docs/detection-matrix.md\n');
}
const first = results[0] as MatrixResult;
const caught = first.defects.filter((d) => d.caught).length;
process.stdout.write(
  `detection ${caught}/${first.defects.length}; correct server clean in ${
    first.baseline.filter((b) => b.clean).length
  }/${first.baseline.length} areas; ${
    repeat > 1
      ? instabilities.length === 0
        ? `identical over ${repeat} runs`
        : `${instabilities.length} unstable`
      : 'one run'
  }; wall ${results.map((r) => `${(r.wallMs / 1000).toFixed(0)} s`).join(', ')}\n`,
);
const ok =
  results.every((r) => r.defects.every((d) => d.caught) && r.baseline.every((b) => b.clean)) &&
  instabilities.length === 0;
process.exit(ok ? 0 : 1);
