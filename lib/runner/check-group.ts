/**
 * A group: one vitest file that loads several check files (a folder of suites/, written beside
 * them when the suite is compiled: scripts/compile.mjs), so that a run going one file at a time
 * pays vitest's cost of a file once per folder, not once per check file. Between two files a
 * worker waits on the CLI's thread for vitest's messages and the next file's modules; and a
 * file's last checks, run alone, leave the rest of its side-by-side lanes idle, where a group
 * goes on with the next file's.
 *
 * Each check file loaded keeps what a vitest file of its own has: its fixture (account, session,
 * evidence, replay book: lib/check/file-fixture.ts), its module state (a user's suites' modules
 * evaluated afresh after each: suite-modules.ts; the bundled suites hold none between their
 * files: kept-modules.ts), and its name in the reports (the test's
 * `meta.checkFile`). A file that fails to load fails the group: every check file of it is
 * reported as not loaded, its rules as errors, the error naming the file that failed.
 *
 * One file at a time (the bundled reference, `--concurrency 1`) the group's checks are one row,
 * in its files' order: checks on accounts of their own go side by side, across a file's end too,
 * and any other check waits for those before it and holds up those after it. Several files at a
 * time (a target elsewhere) each file is a concurrent suite of its own: its checks keep their
 * order among themselves and go beside the other files' (`maxConcurrency` checks of the worker
 * at once). Each file has its own control account, so files that would run in different workers
 * at once may as well run in one, and a worker waiting on the round trips of one file's last
 * check goes on with the next file's. (Against the bundled reference, where the CPU is the
 * limit, files side by side were slower: docs/performance.md.)
 */
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { loadIntoGroup } from '../check/file-fixture.js';
import { filesAtATime } from '../check/run-shared.js';
import { currentRunConfig } from '../check/selected-target.js';
import { freshSuiteModules } from './suite-modules.js';

/**
 * A check file of a group failed to load, and with it the group: vitest runs nothing of a file
 * whose collection failed. `unloaded`: every check file of the group (absolute paths), which the
 * reports show as not loaded, their rules as errors (outcome-collector.ts).
 */
export class GroupLoadError extends Error {
  override name = 'GroupLoadError';
  readonly unloaded: string[];

  constructor(message: string, unloaded: string[], options?: ErrorOptions) {
    super(message, options);
    this.unloaded = unloaded;
  }
}

/**
 * Loads the group's check files in order, each through `load` (the group module's own
 * `import`, so that vitest's module runner resolves it from there). `group`: the group
 * module's URL; `files`: the check files, relative to it.
 */
export async function loadCheckGroup(
  group: string,
  files: readonly string[],
  load: (file: string) => Promise<unknown>,
): Promise<void> {
  const paths = files.map((file) => fileURLToPath(new URL(file, group)));
  const loadOne = async (i: number, file: string) => {
    try {
      await loadIntoGroup(paths[i] as string, () => load(file));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new GroupLoadError(
        `${file} failed to load, and with it the other check files of its group: ${message}`,
        paths,
        { cause: error },
      );
    }
    freshSuiteModules();
  };
  const config = currentRunConfig();
  if (!config || filesAtATime(config) <= 1) {
    for (const [i, file] of files.entries()) await loadOne(i, file);
    return;
  }
  // Several files at a time (RunConfig.filesAtATime): each a concurrent suite. vitest collects the
  // suites one after another, in this order, each loading its file.
  for (const [i, file] of files.entries())
    describe(file, { concurrent: true }, () => loadOne(i, file));
}

/**
 * Loads lane `lane` (from 1) of the run's plan (RunConfig.lanes, check-lanes.ts): a group
 * whose check files the run chose. `module`: the lane module's URL, in `suites/lanes/`, from
 * which the planned files (below `suites/`) are one folder up.
 */
export async function loadCheckLane(
  module: string,
  lane: number,
  load: (file: string) => Promise<unknown>,
): Promise<void> {
  const files = currentRunConfig()?.lanes?.[lane - 1] ?? [];
  await loadCheckGroup(
    module,
    files.map((file) => `../${file}`),
    load,
  );
}
