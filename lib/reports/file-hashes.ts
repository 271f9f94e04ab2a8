import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The package's own files: neither can be inside the hashes they carry. */
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * sha256 of every file under a report directory (allure-results included),
 * by path relative to it with `/` separators, sorted: the same directory
 * always gives the same list.
 */
export function hashDirectory(dir: string): Record<string, string> {
  const out: [string, string][] = [];
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  // Read synchronously: a run's ~400 small files, each through the thread pool, took ~100 ms.
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const name = relative(dir, path).split(sep).join('/');
        if (name === MANIFEST_FILE || name === SIGNATURE_FILE) continue;
        out.push([name, sha256OfFile(path, chunk)]);
      }
    }
  };
  walk(dir);
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(out);
}

/** A file's sha256, read in chunks through one buffer: a run's HAR is megabytes. */
function sha256OfFile(path: string, chunk: Buffer): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
const CHUNK_BYTES = 256 * 1024;
