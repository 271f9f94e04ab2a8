/**
 * A vitest setup file: runs in the worker before each check file. The
 * workers are reused across files (`isolate: false`: starting a fresh
 * worker and re-importing zod, undici, faker and fast-check for each file
 * cost most of a run), yet each file must get its own module state, so that
 * a helper of a user's suites with a counter or a cache at module level sees
 * it fresh in every file (test/engine/isolation-run.test.ts). So those
 * modules are evaluated afresh per file, while the packages Node loaded
 * natively stay loaded.
 *
 * Not all of ours: the engine (lib/, but for this runner's own setup files)
 * keeps what belongs to a file on that file's FileFixture
 * (lib/check/file-fixture.ts: its account, its session, its replay book),
 * never in module state, and the bundled suites hold none between their check
 * files (the rule catalogue, schemas, generators and helpers: constants and
 * functions; each check file runs once in a worker). Evaluating them again for
 * every file was most of the reset's cost (the engine's ~45
 * modules, ~7 ms a file, 0.45 s of a run of 62 files). A module is kept when
 * it lies in one of the kept folders (kept-modules.ts) and everything it
 * imports is kept too (or is a package); every other module of ours is reset,
 * as `vi.resetModules()` would. (Not used in partner mode, where the files
 * share state on purpose: see run-suites.ts.) The compiled suite has Node
 * load the kept folders itself (check-run-options.ts): they never pass
 * through here, and this resets the rest.
 */

import { freshSuiteModules } from './suite-modules.js';

freshSuiteModules();
