import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED, TREE_MODULE_CACHE } from '../config/package-root.js';
import { escapeRegExp } from '../text/escape-regexp.js';
import { keptFoldersPattern } from './kept-modules.js';

const setupFile = (name: string) =>
  fileURLToPath(new URL(`./${name}.${COMPILED ? 'js' : 'ts'}`, import.meta.url));

/** Waits, before a worker's first check file, for the run's RunConfig (see run-config-gate.ts). */
export const RUN_CONFIG_GATE = setupFile('run-config-gate');

/** Sets each check file's module state afresh in a reused worker (see fresh-modules.ts). */
export const FRESH_MODULES = setupFile('fresh-modules');

/**
 * A checkout's compiled copy holds its own (scripts/compile.mjs). Otherwise
 * one module cache per copy of the suite (its root folder), not one per user:
 * vitest empties the cache folder whenever the lockfile it last saw differs,
 * so two copies with different lockfiles (two projects, two checkouts) sharing
 * one folder empty it under each other's running checks ("failed to load:
 * ENOENT"), which turned a whole run's checks into errors.
 */
const SUITE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MODULE_CACHE_DIR =
  TREE_MODULE_CACHE ??
  join(
    tmpdir(),
    `partner-ordering-conformance-modules-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(SUITE_ROOT).digest('hex').slice(0, 12)}`,
  );

/**
 * The vitest options every run of the check files shares: the CLI's run
 * (run-suites.ts) and the run against several targets (test/matrices/run-targets.ts).
 */
export const CHECK_RUN_OPTIONS = {
  // Threads, not forks: one process, so its peak memory is the run's (bench/full-run.ts).
  pool: 'threads',
  // Workers are reused across files; fresh-modules.ts gives each file its own module state.
  isolate: false,
  hookTimeout: 60_000,
  teardownTimeout: 30_000,
  // A stray `.only` in a suite must not silently skip every other check.
  allowOnly: false,
  passWithNoTests: true,
  onConsoleLog: () => false,
  // Checks of a file on accounts of their own, side by side when files are (register.ts): a
  // file's such checks all at once (the largest such file has 7).
  maxConcurrency: 8,
  // Transformed check modules cached on disk between runs (keyed by content): a run after the
  // first skips transforming ~130 modules (~1 s of `npm run bench`'s "rest"). Per user and copy of the suite.
  experimental: {
    fsModuleCache: true,
    fsModuleCachePath: MODULE_CACHE_DIR,
  },
  server: { deps: suiteDeps() },
} as const;

/**
 * Which of the suite's own modules go through vitest's runner (`inline`:
 * evaluated afresh for each file, fresh-modules.ts) and which Node loads
 * itself (`external`). An installed suite lies in node_modules, whose
 * JavaScript vitest would hand to Node as a package: its modules are named
 * inline. Compiled to JavaScript, the kept folders (kept-modules.ts: the
 * engine, the catalogue and the bundled suites) are Node's to load, once per
 * worker: through vitest's runner each of them was a request to the CLI's
 * thread, busy with the run, and V8 compiled it anew with no code cache.
 * Measured, five alternating pairs of full runs at load 2: 7.6 s against
 * 8.2 s, 10.9 against 11.7 CPU-seconds, peak 220 against 231 MB (the engine);
 * the bundled suites' check files and helpers too, ten pairs: 3.07 s against
 * 3.18 s, peak 204 against 210 MB (medians; docs/performance.md). As
 * TypeScript (through tsx) they stay vitest's: Node in the worker cannot load
 * TypeScript itself.
 */
function suiteDeps(): { inline: RegExp[]; external?: RegExp[] } {
  const root = escapeRegExp(SUITE_ROOT);
  if (!COMPILED) return { inline: [new RegExp(`^${root}(?!.*/node_modules/)`)] };
  const kept = keptFoldersPattern();
  return {
    inline: [new RegExp(`^${root}(?!.*/node_modules/)(?!${kept})`)],
    external: [new RegExp(`^${root}${kept}`)],
  };
}
