import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMP_ROOT_ENV } from './temp-dir.js';

/**
 * vitest's global setup: one temporary folder for the whole `npm test`, under
 * which every test's folders are made (temp-dir.ts), removed when the run
 * ends. Tests leave reports, copies of the package and databases in their
 * folders (~100 MB for the package test alone); left in the system's
 * temporary folder, a day of test runs filled it with 26,000 folders and 6 GB.
 *
 * A run that was killed cannot remove its folder: the next run removes the
 * folders of runs whose process is gone. CONFORMANCE_TEST_TMP names a folder
 * of the caller's instead, which is kept (to look at what the tests wrote).
 */
const PREFIX = 'conformance-tests-';
/** A run's folder, `<PREFIX><pid>-XXXXXX`: the pid of the run that made it. */
const OF_A_RUN = new RegExp(`^${PREFIX}(\\d+)-`);

export default function setup(): (() => void) | undefined {
  // Each vitest project runs the global setup; the first one's folder serves them all.
  if (process.env[TEMP_ROOT_ENV]) {
    mkdirSync(process.env[TEMP_ROOT_ENV], { recursive: true });
    return undefined;
  }
  removeAbandoned();
  const root = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  // Traversable by others, as the system's temporary folder is: the PostgreSQL tests run their
  // clusters as the user `postgres`. The folders made in it are the owner's alone (mkdtemp).
  chmodSync(root, 0o755);
  // The test files' processes are started after this and inherit it.
  process.env[TEMP_ROOT_ENV] = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env[TEMP_ROOT_ENV];
  };
}

/** The folders of earlier runs, this user's, whose process no longer exists. */
function removeAbandoned(): void {
  const owner = process.getuid?.();
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(OF_A_RUN.exec(name)?.[1]);
    if (!pid || alive(pid)) continue;
    const dir = join(tmpdir(), name);
    try {
      if (owner !== undefined && statSync(dir).uid !== owner) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it, or it is not ours to remove: either way, not this run's concern.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
