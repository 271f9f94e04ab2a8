import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { emptyDir, TEMP_ROOT_ENV } from '../support/temp-dir.js';
import setup from '../support/temp-root.js';

/** Runs `body` with TMPDIR a folder of its own and no run folder named, as a fresh `npm test` starts. */
function inFreshTmp(body: (tmp: string) => void): void {
  const saved = { TMPDIR: process.env.TMPDIR, root: process.env[TEMP_ROOT_ENV] };
  const tmp = emptyDir('temp-root-');
  onTestFinished(() => {
    for (const [name, value] of [
      ['TMPDIR', saved.TMPDIR],
      [TEMP_ROOT_ENV, saved.root],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  process.env.TMPDIR = tmp;
  delete process.env[TEMP_ROOT_ENV];
  body(tmp);
}

// `npm test` leaves nothing in the temporary folder (test/support/temp-root.ts).
describe("npm test's temporary folder", () => {
  test('is made for the run, holds the tests’ folders, and is removed at its end', () => {
    inFreshTmp((tmp) => {
      const teardown = setup();
      const root = process.env[TEMP_ROOT_ENV] as string;
      expect(dirname(root)).toBe(tmp);
      expect(statSync(root).mode & 0o777).toBe(0o755);
      const dir = emptyDir('x-');
      expect(dirname(dir)).toBe(root);
      teardown?.();
      expect(existsSync(root)).toBe(false);
      expect(process.env[TEMP_ROOT_ENV]).toBeUndefined();
    });
  });

  test("removes the folders of runs whose process is gone, never a living run's", () => {
    inFreshTmp((tmp) => {
      // Above Linux's largest pid (2^22): no such process.
      const abandoned = join(tmp, 'conformance-tests-4194305-abcdef');
      const living = join(tmp, `conformance-tests-${process.ppid}-abcdef`);
      const other = join(tmp, 'conformance-test-abcdef');
      for (const dir of [abandoned, living, other])
        mkdirSync(join(dir, 'inside'), { recursive: true });
      const teardown = setup();
      onTestFinished(() => teardown?.());
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(living)).toBe(true);
      expect(existsSync(other)).toBe(true);
    });
  });

  test('a folder the caller names is used and kept', () => {
    inFreshTmp((tmp) => {
      const named = join(tmp, 'kept');
      process.env[TEMP_ROOT_ENV] = named;
      const teardown = setup();
      expect(teardown).toBeUndefined();
      expect(dirname(emptyDir('x-'))).toBe(named);
    });
  });
});
