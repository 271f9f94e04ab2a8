import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
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
export async function hashDirectory(dir: string): Promise<Record<string, string>> {
  const out: [string, string][] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const name = relative(dir, path).split(sep).join('/');
        if (name === MANIFEST_FILE || name === SIGNATURE_FILE) continue;
        out.push([name, sha256(await readFile(path))]);
      }
    }
  };
  await walk(dir);
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(out);
}
