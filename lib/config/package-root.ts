import { readFileSync } from 'node:fs';
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

/**
 * The package's own folder: where `bin/` and the sources are. PACKAGE_ROOT
 * itself when running from the sources; the folder the compiled tree records
 * (its compiled.json) otherwise, so that a report names files and the command
 * to replay a run as the sources do.
 */
export const SOURCE_ROOT = COMPILED ? recordedSourceRoot() : PACKAGE_ROOT;

function recordedSourceRoot(): string {
  try {
    const stamp = JSON.parse(readFileSync(`${PACKAGE_ROOT}compiled.json`, 'utf8')) as {
      sourceRoot?: unknown;
    };
    if (typeof stamp.sourceRoot === 'string') return `${resolve(PACKAGE_ROOT, stamp.sourceRoot)}/`;
  } catch {
    // Not a tree scripts/compile.mjs wrote: it is its own root.
  }
  return PACKAGE_ROOT;
}
