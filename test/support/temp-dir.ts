import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names the folder that `npm test`'s global setup (temp-root.ts) made for this run's folders. */
export const TEMP_ROOT_ENV = 'CONFORMANCE_TEST_TMP';

/**
 * A new empty folder of the test's own. Under `npm test` it lies in the run's
 * temporary folder, which is removed when the run ends (temp-root.ts), so a
 * test need not remove it; outside vitest (the matrix scripts) in the system's.
 */
export function emptyDir(prefix = 'conformance-test-'): string {
  return mkdtempSync(join(process.env[TEMP_ROOT_ENV] ?? tmpdir(), prefix));
}
