import { escapeRegExp } from '../text/escape-regexp.js';

/**
 * Which of the suite's modules hold no per-file module state, so that a
 * worker evaluates them once for all its check files: the engine (lib/),
 * which keeps what belongs to a file on that file's FileFixture
 * (lib/check/file-fixture.ts), never in module state; the rule catalogue; and
 * the bundled suites (suites/): their check files, each run once in a worker
 * (its own module state is its file's), and what they share, the immutable
 * definitions (response schemas, generators) and the helpers beside them
 * (suites/support/, suites/commands/), which hold constants and functions,
 * never state (test/engine/suites-module-state.test.ts). Any other module (a
 * user's check files and their helpers, elsewhere) is evaluated afresh for
 * each file. Paths relative to the suite's root.
 *
 * Compiled, a kept module is Node's to load (check-run-options.ts): with its
 * code cache, and with no round trip to the CLI's thread, where vitest's module
 * runner fetched each module it evaluated (busy then with the bundled reference
 * and the reports of the file before).
 */
const KEPT_FOLDERS = ['rules/', 'suites/', 'lib/'];

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
