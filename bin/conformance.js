#!/usr/bin/env node
// `npx partner-ordering-conformance` (and `npm run conformance`): hands over to
// the CLI, compiled to JavaScript, so that no run transforms TypeScript at start:
//   - the package (`npm pack`) ships the compiled tree in dist/ (scripts/compile.mjs, at prepack);
//   - a checkout runs a compiled copy of its current sources, built on first use
//     after a change (node_modules/.cache; esbuild, a devDependency);
//   - CONFORMANCE_FROM_SOURCE=1, or a checkout without esbuild: the TypeScript
//     itself through tsx's loader.
// Plain JavaScript on purpose: it must run before any TypeScript can.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
// The namespace, not a named import: on a Node without enableCompileCache (20) a named import
// would fail to link before the version check below could say what is wrong.
import * as nodeModule from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// A namespace too: parseEnv came in Node 20.12, and a Node before it must still hear the version check.
import * as nodeUtil from 'node:util';
import { setFlagsFromString } from 'node:v8';

// The Node versions of package.json "engines": ^22.12 || ^24 || ^26 (the maintained lines).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = (major === 22 && minor >= 12) || major === 24 || major === 26;
if (!supported) {
  process.stderr.write(
    `conformance: error: this Node.js (${process.versions.node}) is not supported; use 22.12+, 24 or 26 (scripts/node.sh brings one)\n`,
  );
  process.exit(2);
}

/** Marks a start made by startAgain (never set by hand): what it set, `one-arena` or `flags`. */
const STARTED_AGAIN = 'PARTNER_ORDERING_CONFORMANCE_STARTED_AGAIN';
startAgain();

// The V8 heaps' sizes (a run's peak at most 300 MB), for this thread's heap and every
// heap started from here on (vitest's workers, each a heap of its own). Set before any worker
// starts; both are read by V8 as it goes, so they hold however Node was started (`npx` passes no
// Node flags), and `npm run conformance` needs none either.
// - A young generation that keeps its starting size instead of doubling: Node 24 lets it grow to
//   a size taken from the machine's memory (on a 24 GB machine a run's peak was ~510 MB against
//   ~360 MB on Node 22), and `npx` without Node flags peaked at 261-271 MB instead of 328-341 MB.
//   Its starting size is 1 MB a half, 4 MB on this thread when started again (startAgain, below).
// - An old generation that grows by 25% of what survives a collection, not by up to four times
//   (V8's factor for a machine with many gigabytes): the checks' worker grew to ~105 MB around
//   ~50 MB of live objects. Measured at 50%: peak 262-269 MB against 290-299, 0.1-0.4
//   CPU-seconds more. At 25% (with the checks' worker's young generation at 4 MB a half, set
//   where vitest starts it: lib/runner/run-suites.ts, and no Sparkplug): peak 227-229 MB
//   against 231-235 at 30%, 18-19 mark-compacts in a full run against 16, no slower.
// - No Sparkplug, V8's baseline compiler: its machine code for every warm function of vitest,
//   the reference and the checks was ~10 MB of a run's peak; what runs hot is still optimised
//   (Maglev, TurboFan). Measured, six alternating pairs of full runs at load 1.3-2.1: peak
//   232-234 MB against 240-248, wall 62.5 s in sum against 65.3 (within the machine's noise).
// A flag given on Node's command line wins.
const V8_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=25', '--no-sparkplug'];
for (const flag of V8_FLAGS) {
  // The flag's name without `--`, `--no-` or its value: either form on the command line wins.
  const name = (s) => s.replace(/^--(no-)?/, '').split('=')[0];
  if (!process.execArgv.some((arg) => name(arg) === name(flag))) setFlagsFromString(flag);
}

const root = fileURLToPath(new URL('../', import.meta.url));
const main = await entry();
await import(pathToFileURL(main).href);

/** The CLI's main module: compiled if at all possible. */
async function entry() {
  if (!existsSync(`${root}lib/cli/main.ts`)) {
    compileCache(join(tmpdir(), `partner-ordering-conformance-compile-cache-${userTag()}`));
    return `${root}dist/lib/cli/main.js`;
  }
  if (process.env.CONFORMANCE_FROM_SOURCE !== '1') {
    const tree = await compiledCopy();
    if (tree) {
      // Inside the compiled copy: it goes with the copy (its modules' paths are the copy's).
      compileCache(`${tree}/compile-cache`);
      return `${tree}/lib/cli/main.js`;
    }
  }
  return fromSource();
}

/**
 * Node's compile cache: the modules loaded natively (the CLI's, vitest's, the reference's, and in
 * the checks' worker zod's, undici's, faker's) start from V8's code cache instead of being parsed
 * and compiled anew at every run. Workers inherit it through NODE_COMPILE_CACHE. A cache that
 * cannot be used costs nothing but the compiling it would have saved.
 */
function compileCache(dir) {
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    const { directory } = nodeModule.enableCompileCache(dir);
    if (directory) process.env.NODE_COMPILE_CACHE = directory;
  } catch {
    // An unwritable temporary folder: compiled as ever.
  }
}

/** One cache per user (the temporary folder may be shared). */
function userTag() {
  return process.getuid?.() ?? 'user';
}

/** A checkout: its compiled copy; undefined without esbuild (installed without devDependencies). */
async function compiledCopy() {
  try {
    // Found, not loaded: esbuild is loaded only when the sources changed and need compiling.
    import.meta.resolve('esbuild');
  } catch {
    return undefined;
  }
  const { compiledCopy } = await import('../scripts/compile.mjs');
  return compiledCopy(root);
}

/**
 * The TypeScript sources through tsx. The big JavaScript dependencies are
 * loaded natively first: a module loaded through tsx's hooks costs memory for
 * its whole life, and vitest/vite alone would add ~150 MB that way. The
 * TypeScript that imports them later finds them in Node's module cache.
 */
async function fromSource() {
  await Promise.all(['vitest/node', 'undici', 'zod'].map((name) => import(name)));
  const { register } = await import('tsx/esm/api');
  // The suite's own tsconfig, not that of the project it is installed in.
  register({ tsconfig: `${root}tsconfig.json` });
  return `${root}lib/cli/main.ts`;
}

/**
 * Starts the CLI again, in the same process (execve: same pid, same standard streams), with what
 * can only be set as a process starts; ~30 ms. Not on Windows (no execve), nor under a debugger
 * (it would lose this start). What the user set on the command line or in the environment wins.
 *
 * - The CLI's thread's young generation at 4 MB a half (`--min-semi-space-size=4`; V8 sizes a
 *   heap's young generation as the heap is made, so for this thread only from the command line).
 *   This thread answers the bundled reference and serves vitest: at 1 MB a half it scavenged ~660
 *   times in a full run (294 ms), at 4 MB ~150 times (160 ms). Twenty alternating pairs of full
 *   runs: 3.70 s against 3.83 s wall, 5.45 against 5.70 CPU-seconds, peak 209.5 MB against 205.
 *   vitest's workers get the same size either way (lib/runner/run-suites.ts).
 * - For a run against the bundled reference, one file at a time (as far as can be told here:
 *   bundledOneAtATime), V8's helper threads (its concurrent compilers and collectors) as many as
 *   the machine's cores, at most Node's 4 (`--v8-pool-size`, read as the process starts). Such a
 *   run keeps two threads of its own busy (this one, which also answers the reference, and the
 *   checks' worker), and on two cores four helpers took their cores from them (~1.5 CPU-seconds
 *   of a full run, mostly compiling): fourteen alternating pairs of full runs, 3.25 s wall with
 *   four against 3.06 s with one. One was too few: a helper busy compiling left the checks'
 *   worker's marking late, its heap grew on meanwhile (60 MB where it was collected at 45), and
 *   V8 keeps a heap's freed pages for reuse, so the run's peak kept the overshoot: 224 to 248 MB
 *   in about one full run of twelve, against 200 to 213 otherwise. Two on two cores: no such
 *   overshoot in over 40 full runs (at most 213 MB), the wall within the noise (two alternating
 *   benches: 2.22x and 2.30x against 2.22x and 2.40x with one; twelve pairs 3.54 s against
 *   3.42 s). Not against a target elsewhere: its eight workers, eight heaps, peaked at 546 to
 *   582 MB with one helper against 514 to 526 with Node's four, no faster.
 * - One glibc malloc arena (Linux but musl: MALLOC_ARENA_MAX=1). glibc gives a thread that
 *   allocates while another holds malloc's lock an arena of its own, up to eight a core, and each
 *   keeps what was freed in it. A run's threads (the CLI's, the checks' worker, V8's compilers and
 *   collectors, libuv's file threads) held ~40 MB that way, 17 MB of it in six thread arenas, and
 *   the peak moved by up to 20 MB with which thread allocated when. Ten alternating pairs of full
 *   runs: peak 206.5 MB (at most 223) against 216 (at most 236), no slower (4.37 s either way); two
 *   arenas gave 212 (at most 226). glibc reads the variable as the process starts; it is taken out
 *   of the environment again then, so that nothing the CLI starts (a partner's client) inherits it.
 */
function startAgain() {
  const again = process.env[STARTED_AGAIN];
  if (again !== undefined) {
    delete process.env[STARTED_AGAIN];
    if (again === 'one-arena') delete process.env.MALLOC_ARENA_MAX;
    return;
  }
  if (typeof process.execve !== 'function') return;
  // Node's flags as given: on its command line or in NODE_OPTIONS.
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => arg.startsWith('--inspect'))) return;
  const helpers = Math.min(4, Math.max(1, availableParallelism()));
  const flags = [
    ...(given.some((arg) => /^--(min|max)-semi-space-size/.test(arg))
      ? []
      : ['--min-semi-space-size=4']),
    // Node's own is 4: only fewer is worth a flag.
    ...(helpers < 4 && !given.some((arg) => arg.startsWith('--v8-pool-size')) && bundledOneAtATime()
      ? [`--v8-pool-size=${helpers}`]
      : []),
  ];
  const oneArena =
    process.platform === 'linux' &&
    process.env.MALLOC_ARENA_MAX === undefined &&
    !process.env.GLIBC_TUNABLES?.includes('arena') &&
    !musl();
  if (flags.length === 0 && !oneArena) return;
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
      {
        ...process.env,
        ...(oneArena ? { MALLOC_ARENA_MAX: '1' } : {}),
        [STARTED_AGAIN]: oneArena ? 'one-arena' : 'flags',
      },
    );
  } catch {
    // Not started again (a sandbox refusing execve): the run goes on as started.
  }
}

/**
 * Whether the run is against the bundled reference, one check file at a time: none of the
 * options that can say otherwise given, as a flag, in the environment or in ./.env (a profile
 * may name a target). Wrong only at a cost: the helper threads as Node has them.
 */
function bundledOneAtATime() {
  const args = process.argv.slice(2);
  let dotenv = {};
  try {
    dotenv = nodeUtil.parseEnv(readFileSync('.env', 'utf8'));
  } catch {
    // No .env here (or unreadable: the CLI says so).
  }
  // The options (flag, variable) that can take a run to a target elsewhere, or several files at a time.
  const elsewhere = [
    ['target', 'TARGET_BASE_URL'],
    ['profile', 'CONFORMANCE_PROFILE'],
    ['concurrency', 'CONFORMANCE_CONCURRENCY'],
  ];
  return elsewhere.every(
    ([flag, variable]) =>
      !args.some((arg) => arg === `--${flag}` || arg.startsWith(`--${flag}=`)) &&
      process.env[variable] === undefined &&
      dotenv[variable] === undefined,
  );
}

function musl() {
  try {
    return readdirSync('/lib').some((name) => name.startsWith('ld-musl-'));
  } catch {
    return false;
  }
}
