/**
 * `npm run dialects:matrix [-- --dialect NAME,… --seed N]`: the dialect matrix
 * (test/matrices/run-dialects.ts: any legal dialect can be certified), printed:
 * the reference server in each dialect of test/dialects/, certified with its profile and run
 * without one, beside the reference dialect. Exit 0 only when every run
 * with its profile has 0 failed, 0 error and the reference's number of
 * not_verifiable, and every run without one has 0 MUST failed.
 */
import { parseArgs } from 'node:util';
import {
  DIALECTS,
  type DialectName,
  type DialectRun,
  runDialectMatrix,
} from '../test/matrices/run-dialects.js';

const USAGE = 'usage: npm run dialects:matrix -- [--dialect NAME[,NAME…]] [--seed N]';
let dialects: DialectName[] = [...DIALECTS];
let seed: number | undefined;
try {
  const { values } = parseArgs({
    options: { dialect: { type: 'string', multiple: true }, seed: { type: 'string' } },
  });
  if (values.seed !== undefined) {
    if (!/^\d{1,10}$/.test(values.seed))
      throw new Error(`--seed must be a whole number, got ${values.seed}`);
    seed = Number(values.seed);
  }
  if (values.dialect) {
    const asked = values.dialect.flatMap((v) => v.split(','));
    const unknown = asked.filter((name) => !(DIALECTS as readonly string[]).includes(name));
    if (unknown.length)
      throw new Error(`unknown dialect ${unknown.join(', ')} (${DIALECTS.join(', ')})`);
    dialects = asked as DialectName[];
  }
} catch (error) {
  process.stderr.write(`dialects:matrix: ${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const started = Date.now();
const runs = await runDialectMatrix(dialects, 3, undefined, seed);
const reference = runs.find((r) => r.server === 'reference');
const nv = (run: DialectRun | undefined) => run?.counts.not_verifiable ?? 0;
let ok = true;
for (const run of runs) {
  const counts = Object.entries(run.counts)
    .map(([verdict, n]) => `${verdict} ${n}`)
    .join(', ');
  const good =
    run.server === 'reference' || run.withProfile
      ? run.run.exitCode !== 2 &&
        (run.counts.failed ?? 0) === 0 &&
        (run.counts.error ?? 0) === 0 &&
        nv(run) === nv(reference)
      : run.mustFailed.length === 0;
  ok &&= good;
  const label = `${run.server}${run.server === 'reference' ? '' : run.withProfile ? ' + profile' : ' (no profile)'}`;
  process.stdout.write(
    `${good ? 'ok  ' : 'BAD '} ${label.padEnd(24)} exit ${run.run.exitCode}  ${counts}${run.mustFailed.length ? `  MUST failed: ${run.mustFailed.join(' ')}` : ''}\n`,
  );
  if (run.run.problem && !run.mismatches.length)
    process.stdout.write(`${run.run.problem.replace(/^/gm, '       ')}\n`);
  for (const line of run.mismatches) process.stdout.write(`       ${line}\n`);
  // Every rule that did not pass, by verdict: warnings too (DIALECT rules the profile should have kept quiet).
  const notPassed = Object.entries(run.run.verdicts).filter(([, v]) => v !== 'passed');
  if (notPassed.length)
    process.stdout.write(`       ${notPassed.map(([id, v]) => `${id}:${v}`).join(' ')}\n`);
}
process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(ok ? 0 : 1);
