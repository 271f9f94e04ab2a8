// Adds up vitest's JSON results (--reporter=json), one file or several (CI runs the whole suite on one
// Node and the unit tests on the others), and prints the plain line "N passed, N failed" that CI reads;
// exits non-zero when a test failed, when no test ran, or when a results file is missing.
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
for (const file of files) {
  let results;
  try {
    results = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`ci-summary: cannot read ${file}: ${error.message}`);
    missing++;
    continue;
  }
  passed += results.numPassedTests ?? 0;
  failed += results.numFailedTests ?? 0;
  skipped += (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
  // A file that failed to load has no test results of its own: count it as a failure, not as nothing.
  failed += (results.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
}
// The last line is exactly "N passed, N failed": skipped tests are told on a line of their own.
if (skipped > 0) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed + missing} failed`);
if (files.length === 0 || passed + failed === 0) {
  console.error('ci-summary: no test ran');
  process.exit(1);
}
if (failed + missing > 0) process.exit(1);
