import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Vite's cache: not inside the package, since an installed suite may sit in a read-only directory. */
export const VITE_CACHE_DIR = join(tmpdir(), 'partner-ordering-conformance-vite');

/**
 * What one run leaves for the next (the partner demand, the accounts
 * foreseen): small JSON files beside vitest's cache, outside the package,
 * which may be read-only. A cache only ever saves the next run time: one
 * that is missing, unreadable or not ours reads as nothing, and one that
 * cannot be written is no error.
 */
export function cacheFile(name: string): string {
  return join(VITE_CACHE_DIR, name);
}

/** The file's JSON; undefined when there is none, it is broken, or another user owns it. */
export function readCache(path: string): unknown {
  try {
    // The temporary folder is everybody's: a file another user left there is not ours to follow.
    const owner = process.getuid?.();
    if (owner !== undefined && statSync(path).uid !== owner) return undefined;
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Replaces the file with `value` as JSON, all at once (a reader never sees half of it). Never throws. */
export function writeCache(path: string, value: unknown): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(value));
    renameSync(temporary, path);
  } catch {
    // The next run does without.
  }
}
