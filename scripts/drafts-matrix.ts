/**
 * `npm run drafts:matrix [-- --dialect NAME,…]`: how close a draft profile from a live server
 * comes to the dialect's own, measured.
 * For the reference and each dialect of the dialect matrix, `--draft-profile`
 * from the live server (the reference speaking the dialect, with its control
 * API), the draft loaded with no hand edit and compared field by field with
 * the dialect's own profile. Prints, per dialect, the fields right, the
 * wrong ones and whether a TODO names each. Exit 0 only when every wrong
 * field is named by a TODO.
 */
import { parseArgs } from 'node:util';
import { DIALECTS } from '../test/matrices/run-dialects.js';
import { runDraftMatrix } from '../test/matrices/run-drafts.js';

const { values } = parseArgs({
  options: { dialect: { type: 'string', multiple: true }, verbose: { type: 'boolean' } },
});
const asked = values.dialect?.flatMap((v) => v.split(',')) ?? ['reference', ...DIALECTS];
const started = performance.now();
const runs = await runDraftMatrix(asked);
let unnamed = 0;
for (const run of runs) {
  unnamed += run.unnamed.length;
  process.stdout.write(
    `${run.unnamed.length ? 'FAIL' : 'ok  '} ${run.dialect.padEnd(10)} ${String(run.right).padStart(3)}/${run.fields} fields right with no hand edit, ${String(run.wrong.length).padStart(2)} wrong (${run.unnamed.length} not named by a TODO), ${run.todos.length} TODOs, ${run.requests} requests\n`,
  );
  for (const field of run.unnamed) process.stdout.write(`       not named: ${field}\n`);
  if (values.verbose) for (const w of run.wrong) process.stdout.write(`       wrong: ${w}\n`);
}
process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(unnamed === 0 ? 0 : 1);
