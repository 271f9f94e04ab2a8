import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pruneResultsCache, resultsCacheFile } from '../../lib/plan/results-cache.js';
import { emptyDir } from '../support/temp-dir.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = emptyDir('results-cache-');
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const result = { duration: 12.5, failed: false };
function writeResults(path: string, results: [string, unknown][]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ version: '4.1.12', results }));
}
const keysIn = (path: string): string[] =>
  (JSON.parse(readFileSync(path, 'utf8')) as { results: [string, unknown][] }).results.map(
    ([key]) => key,
  );

describe("vitest's results cache (lib/plan/results-cache.ts)", () => {
  it('drops the entries of files that no longer exist, in order, and keeps the rest', () => {
    const root = tempDir();
    mkdirSync(join(root, 'suites'));
    writeFileSync(join(root, 'suites', 'a.check.ts'), '');
    writeFileSync(join(root, 'outside.check.ts'), '');
    const path = resultsCacheFile(tempDir());
    writeResults(path, [
      [':suites/gone.check.ts', result],
      [':suites/a.check.ts', result],
      [`:../${root.split('/').pop()}/outside.check.ts`, result],
      [':../conformance-targets-x/t0/suites/b.check.ts', result],
      [':', result],
    ]);
    pruneResultsCache(root, path);
    expect(keysIn(path)).toEqual([
      ':suites/a.check.ts',
      `:../${root.split('/').pop()}/outside.check.ts`,
    ]);
    expect(JSON.parse(readFileSync(path, 'utf8')).version).toBe('4.1.12');
  });

  it('leaves a cache with nothing to drop as it is, and a broken or foreign one alone', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.check.ts'), '');
    const path = resultsCacheFile(tempDir());
    writeResults(path, [[':a.check.ts', result]]);
    const before = statSync(path).mtimeMs;
    const text = readFileSync(path, 'utf8');
    pruneResultsCache(root, path);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(statSync(path).mtimeMs).toBe(before);
    for (const foreign of ['{"results": [', '[]', '{"version": 4, "results": []}']) {
      writeFileSync(path, foreign);
      expect(() => pruneResultsCache(root, path)).not.toThrow();
      expect(readFileSync(path, 'utf8')).toBe(foreign);
    }
    expect(() => pruneResultsCache(root, join(tempDir(), 'none.json'))).not.toThrow();
  });
});

describe('a run prunes the results cache vitest reads (where vitest keeps it)', () => {
  let target: TinyTarget;
  beforeAll(async () => {
    target = await startTinyTarget('unauthorized', 'results-cache-control-token');
  });
  afterAll(async () => {
    await target?.close();
  });

  it("before the run, a removed file's entry goes; after it, vitest has recorded the run's files", async () => {
    // A temporary folder of the run's own: the cache lives under it (os.tmpdir()).
    const tmp = tempDir();
    const path = resultsCacheFile(join(tmp, 'partner-ordering-conformance-vite'));
    writeResults(path, [[':../conformance-targets-gone/t0/suites/x.check.ts', result]]);
    const run = await runCli(
      [
        '--target',
        target.origin,
        '--report-dir',
        join(tmp, 'report'),
        ...fixtureSuites('isolation'),
      ],
      { TMPDIR: tmp },
    );
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
    const keys = keysIn(path);
    expect(keys).not.toContain(':../conformance-targets-gone/t0/suites/x.check.ts');
    // Keyed by path relative to the run's root, wherever that is: the fixtures' file names.
    expect(keys.filter((key) => key.includes('isolation/file-')).length).toBe(4);
  });
});
