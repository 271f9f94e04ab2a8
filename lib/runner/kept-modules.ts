import { escapeRegExp } from '../text/escape-regexp.js';

/**
 * Which of the suite's modules hold no per-file module state, so that a
 * worker evaluates them once for all its check files: the immutable
 * definitions (the rule catalogue, response schemas, generators) and the
 * engine (lib/), which keeps what belongs to a file on that file's
 * FileFixture (lib/check/file-fixture.ts), never in module state. Every
 * other module of the suite (the check files, their helpers) is evaluated
 * afresh for each file. Paths relative to the suite's root.
 */
const KEPT_FOLDERS = ['rules/', 'suites/schemas/', 'suites/arbitraries/', 'lib/'];

/** This runner's setup files run for every file: evaluated afresh, though in lib/. */
const RESET_FOLDERS = ['lib/runner/'];

/** Whether `path` (relative to the suite's root) lies in a kept folder. */
export function inKeptFolder(path: string): boolean {
  return (
    KEPT_FOLDERS.some((dir) => path.startsWith(dir)) &&
    !RESET_FOLDERS.some((dir) => path.startsWith(dir))
  );
}

/** The kept folders below `root` as a regular expression (source) of what follows the root. */
export function keptFoldersPattern(): string {
  return `(?:${KEPT_FOLDERS.map(
    (dir) =>
      escapeRegExp(dir) +
      RESET_FOLDERS.filter((reset) => reset.startsWith(dir))
        .map((reset) => `(?!${escapeRegExp(reset.slice(dir.length))})`)
        .join(''),
  ).join('|')})`;
}
