import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesBelow } from '../support/files-below.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUITES = join(ROOT, 'suites');

/**
 * The `--suites` glob of the check files that register a rule of `area`.
 * Loading only those (not every file, to be skipped by `--only`) halves the
 * time of a run; found by what the files register, not by folder, so a check
 * moved elsewhere is still found. The correct server's run of the area shows
 * that nothing was missed: a rule without its check would end not_verifiable.
 */
export function areaChecksGlob(area: string): string {
  return checksGlob([area]);
}

/** The `--suites` glob of the check files that register any of these rules or a rule of these areas. */
export function checksGlob(selectors: readonly string[]): string {
  const alternatives = selectors.map((s) => (s.includes('-') ? s : `${s}-\\d{2}`)).join('|');
  const registers = new RegExp(`\\bcheck\\(\\s*['"\`](?:${alternatives})['"\`]`);
  const files = filesBelow(SUITES, '.check.ts')
    .filter((path) => registers.test(readFileSync(path, 'utf8')))
    .map((path) =>
      relative(ROOT, path)
        .replaceAll('\\', '/')
        .replace(/\.check\.ts$/, ''),
    )
    .sort();
  if (files.length === 0) throw new Error(`no check file registers ${selectors.join(', ')}`);
  const stems = files.length === 1 ? files[0] : `{${files.join(',')}}`;
  return join(ROOT, `${stems}.check.ts`);
}
