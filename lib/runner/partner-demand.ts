import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { Tally } from '../client/rate-limits.js';

/**
 * What each check file sent with the partner key in the last partner run,
 * kept beside vitest's cache (outside the package, which may be read-only):
 * the next partner run plans its file order with it (partner-plan.ts). Only
 * counts of requests by class and file paths: nothing secret. A missing or
 * unreadable cache only means the plan estimates.
 */
export const DEMAND_CACHE = join(
  tmpdir(),
  'partner-ordering-conformance-vite',
  'partner-demand.json',
);

export function readDemand(path = DEMAND_CACHE): Map<string, Tally> {
  const demand = new Map<string, Tally>();
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Partial<Tally>>;
    for (const [file, t] of Object.entries(parsed ?? {})) {
      if ([t?.read, t?.write, t?.token].every((n) => typeof n === 'number' && n >= 0))
        demand.set(file, t as Tally);
    }
  } catch {
    // No cache yet, or not ours to read: the plan estimates.
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
  try {
    const merged = Object.fromEntries(readDemand(path));
    for (const [file, tally] of files) {
      const key = relative(root, file);
      // Files outside the suite (test fixtures run from elsewhere) are not planned.
      if (!key.startsWith('..') && !isAbsolute(key)) merged[key] = tally;
    }
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(merged));
    renameSync(temporary, path);
  } catch {
    // A cache that cannot be written costs the next run its plan, nothing else.
  }
}
