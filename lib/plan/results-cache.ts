import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCache, VITE_CACHE_DIR, writeCache } from './run-cache.js';

/**
 * vitest's results cache: each check file's last duration and whether it
 * failed, by which its sequencer starts the slowest and the failing files
 * first. vitest keeps it at `<cacheDir>/vitest/<sha1 of the project's name>/results.json`
 * (our runs' project has no name), reads all of it into the main thread before
 * a run and writes all of it back after, and never forgets a file.
 *
 * Our cache folder is shared by every run of every copy of the suite, so check
 * files that come and go (a test's temporary targets, the defect matrix's
 * wrappers, a `--checks` folder since removed) made it grow without end: after
 * a day of this project's tests it held 52,338 files (6.4 MB), which a run of
 * 62 check files carried as ~45 MB of its peak memory.
 */
export function resultsCacheFile(cacheDir = VITE_CACHE_DIR): string {
  return join(cacheDir, 'vitest', createHash('sha1').update('').digest('hex'), 'results.json');
}

/**
 * Before a run: drops the entries of files that no longer exist. Keys are
 * `<project name>:<path relative to the run's root>`. An entry another copy of
 * the suite (another root) left keeps its place while the same relative path
 * exists here; at worst a dropped one costs that copy the order of one run.
 * Never throws: the cache only orders files.
 */
export function pruneResultsCache(root: string, path = resultsCacheFile()): void {
  const cached = readCache(path);
  if (!isResultsCache(cached)) return;
  const kept = cached.results.filter(([key]) => {
    const file = key.slice(key.indexOf(':') + 1);
    return file !== '' && existsSync(resolve(root, file));
  });
  if (kept.length < cached.results.length) writeCache(path, { ...cached, results: kept });
}

interface ResultsCache {
  version: string;
  results: [string, unknown][];
}

function isResultsCache(value: unknown): value is ResultsCache {
  if (typeof value !== 'object' || value === null) return false;
  const { version, results } = value as Partial<ResultsCache>;
  return (
    typeof version === 'string' &&
    Array.isArray(results) &&
    results.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string')
  );
}
