import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The suite's own directory (where `suites/`, `config/` and `server/` live),
 * which is not the user's working directory when run through `npx`. Run
 * compiled (the package's `dist/`, or a checkout's compiled copy: see
 * scripts/compile.mjs), it is the compiled tree's root.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Running as JavaScript compiled from the sources (not through a TypeScript loader). */
export const COMPILED = import.meta.url.endsWith('.js');

/** What scripts/compile.mjs recorded of a compiled tree (its compiled.json); {} for any other. */
const STAMP: { sourceRoot?: unknown; moduleCache?: unknown } = COMPILED ? readStamp() : {};

function readStamp(): typeof STAMP {
  try {
    const stamp = JSON.parse(readFileSync(`${PACKAGE_ROOT}compiled.json`, 'utf8')) as unknown;
    return typeof stamp === 'object' && stamp !== null ? stamp : {};
  } catch {
    // Not a tree scripts/compile.mjs wrote: it is its own root.
    return {};
  }
}

/**
 * The package's own folder: where `bin/` and the sources are. PACKAGE_ROOT
 * itself when running from the sources; the folder the compiled tree records
 * otherwise, so that a report names files and the command to replay a run as
 * the sources do.
 */
export const SOURCE_ROOT =
  typeof STAMP.sourceRoot === 'string'
    ? `${resolve(PACKAGE_ROOT, STAMP.sourceRoot)}/`
    : PACKAGE_ROOT;

/**
 * Where a checkout's compiled copy keeps vitest's module cache: inside itself, so
 * that it goes with the copy. Undefined for the sources and the package's dist/
 * (which may be read-only): their cache lies in the temporary folder.
 */
export const TREE_MODULE_CACHE =
  typeof STAMP.moduleCache === 'string' ? resolve(PACKAGE_ROOT, STAMP.moduleCache) : undefined;

/**
 * A file of the compiled tree as the sources name it (`config/reference.json`
 * of the checkout rather than of its compiled copy), when the sources have it;
 * any other path as it is.
 */
export function sourcePath(path: string): string {
  if (!COMPILED || SOURCE_ROOT === PACKAGE_ROOT || !path.startsWith(PACKAGE_ROOT)) return path;
  const source = `${SOURCE_ROOT}${path.slice(PACKAGE_ROOT.length)}`;
  return existsSync(source) ? source : path;
}
