// Prints vitest's JSON results (--reporter=json) as the plain line "N passed, N failed" that CI reads,
// and exits non-zero when no test ran or the results are missing.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`ci-summary: cannot read ${file}: ${error.message}`);
  console.log('0 passed, 0 failed');
  process.exit(1);
}
const passed = results.numPassedTests ?? 0;
const failed = results.numFailedTests ?? 0;
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
// A file that failed to load has no test results of its own: count it as a failure, not as nothing.
const brokenFiles = (results.testResults ?? []).filter(
  (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
).length;
// The last line is exactly "N passed, N failed": skipped tests are told on a line of their own.
if (skipped > 0) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed + brokenFiles} failed`);
if (passed + failed === 0) {
  console.error('ci-summary: no test ran');
  process.exit(1);
}
if (failed + brokenFiles > 0) process.exit(1);
