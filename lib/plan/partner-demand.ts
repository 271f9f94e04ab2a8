import { isAbsolute, relative } from 'node:path';
import type { Tally } from '../client/rate-limits.js';
import { cacheFile, readCache, writeCache } from './run-cache.js';

/**
 * What each check file sent with the partner key in the last partner run
 * (run-cache.ts): the next partner run plans its file order with it
 * (partner-plan.ts). Only counts of requests by class and file paths: nothing
 * secret. A missing or unreadable cache only means the plan estimates.
 */
const DEMAND_CACHE = cacheFile('partner-demand.json');

export function readDemand(path = DEMAND_CACHE): Map<string, Tally> {
  const demand = new Map<string, Tally>();
  const parsed = readCache(path);
  if (typeof parsed !== 'object' || parsed === null) return demand;
  for (const [file, t] of Object.entries(parsed as Record<string, Partial<Tally> | null>)) {
    if ([t?.read, t?.write, t?.token].every((n) => typeof n === 'number' && n >= 0))
      demand.set(file, t as Tally);
  }
  return demand;
}

/**
 * Adds this run's per-file counts (a file not run this time keeps its last
 * counts), by path relative to the suite's `root`. Never throws.
 */
export function writeDemand(
  files: ReadonlyMap<string, Tally>,
  root: string,
  path = DEMAND_CACHE,
): void {
  if (files.size === 0) return;
  const merged = Object.fromEntries(readDemand(path));
  for (const [file, tally] of files) {
    const key = relative(root, file);
    // Files outside the suite (test fixtures run from elsewhere) are not planned.
    if (!key.startsWith('..') && !isAbsolute(key)) merged[key] = tally;
  }
  writeCache(path, merged);
}
