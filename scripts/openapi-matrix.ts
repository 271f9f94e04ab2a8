/**
 * `npm run openapi:matrix [-- --dialect NAME,…]`: the OpenAPI matrix with its
 * figures (test/matrices/openapi.test.ts asserts them). For the reference and
 * each dialect of test/dialects/: the document the reference serves for it,
 * drafted back with --draft-profile-from (fields right of all), the whole
 * suite run with that draft (exit code, verdicts), every recorded answer
 * judged against the document by Prism (answers to valid requests judged,
 * violations), and the generated openapi-fetch client (type check, steps).
 * Exit 0 only when every dialect is right in every field, certifies, has no
 * violation and its client ran.
 */
import { parseArgs } from 'node:util';
import { DIALECTS } from '../test/matrices/run-dialects.js';
import { runOpenApiMatrix } from '../test/matrices/run-openapi.js';

const { values } = parseArgs({ options: { dialect: { type: 'string', multiple: true } } });
const asked = values.dialect?.flatMap((v) => v.split(',')) ?? ['reference', ...DIALECTS];
const started = performance.now();
let bad = 0;
for (const run of await runOpenApiMatrix(asked)) {
  const clientOk = run.client.typecheck.code === 0 && run.client.run.code === 0;
  const ok =
    run.wrong.length === 0 && run.run.exitCode === 0 && run.violations.length === 0 && clientOk;
  if (!ok) bad++;
  process.stdout.write(
    `${ok ? 'ok  ' : 'FAIL'} ${run.dialect.padEnd(10)} drafted ${run.right}/${run.fields} fields; run exit ${run.run.exitCode} (${Object.entries(
      run.counts,
    )
      .map(([k, n]) => `${n} ${k}`)
      .join(
        ', ',
      )}); answers judged ${run.judged.valid}, violations ${run.violations.length} (set aside: ${run.judged['invalid-request']} invalid requests, ${run.judged['no-operation']} unknown operations, ${run.judged['not-judged']} control or cut); client ${clientOk ? 'ok' : 'FAILED'}\n`,
  );
  for (const line of [...run.wrong, ...run.violations.slice(0, 10)])
    process.stdout.write(`       ${line}\n`);
  if (run.run.problem) process.stdout.write(`       ${run.run.problem.split('\n')[0]}\n`);
  if (!clientOk)
    process.stdout.write(
      `       ${(run.client.typecheck.output || run.client.run.output).slice(0, 400)}\n`,
    );
}
process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(bad === 0 ? 0 : 1);
