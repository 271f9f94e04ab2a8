/**
 * `npm run repro:matrix [-- --defect NAME,…] [--concurrency N]`: for each
 * defect of the defect matrix (or those named), certifies its rule alone
 * against a reference with the defect, then runs the rule's reproduction in
 * both forms against that server and against a correct reference. Prints
 * the figures and every row that did not hold. Exit 0 only when every row
 * held: caught, REPRODUCED in both forms against the defect, NOT REPRODUCED
 * in both against the correct reference.
 */
import { parseArgs } from 'node:util';
import {
  REPRO_CONCURRENCY,
  renderReproMatrix,
  runReproMatrix,
} from '../test/matrices/run-repro-matrix.js';

const USAGE = 'usage: npm run repro:matrix -- [--concurrency N] [--defect NAME[,NAME…]]';

function fail(message: string): never {
  process.stderr.write(`repro:matrix: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values: { concurrency?: string; defect?: string[]; help?: boolean };
try {
  values = parseArgs({
    options: {
      concurrency: { type: 'string' },
      defect: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (values.concurrency !== undefined && !/^[1-9]\d*$/.test(values.concurrency))
  fail('--concurrency must be a whole number of at least 1');
const only = values.defect?.flatMap((value) => value.split(',')).filter(Boolean);

let matrix: Awaited<ReturnType<typeof runReproMatrix>>;
try {
  matrix = await runReproMatrix({
    concurrency: values.concurrency ? Number(values.concurrency) : REPRO_CONCURRENCY,
    ...(only ? { defects: only } : {}),
    onRow: (done, total, row) => {
      const forms = row.file
        ? `defect ${row.bad?.mjs.code}/${row.bad?.curl.code}, correct ${row.good?.mjs.code}/${row.good?.curl.code}`
        : 'no reproduction';
      process.stderr.write(
        `  [${done}/${total}] ${row.defect} (${row.rule}): ${row.verdict}; .mjs/curl exit ${forms}${row.ok ? '' : '  <- did not hold'} (${(row.ms / 1000).toFixed(1)} s)\n`,
      );
    },
  });
} catch (error) {
  fail((error as Error).message);
}
process.stdout.write(`${renderReproMatrix(matrix)}\n`);
process.exit(matrix.rows.every((row) => row.ok) ? 0 : 1);
