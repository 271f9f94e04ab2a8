import { vi } from 'vitest';

/**
 * A vitest setup file: runs in the worker before each check file. The
 * workers are reused across files (`isolate: false`: starting a fresh
 * worker and re-importing zod, undici, faker and fast-check for each file
 * cost most of a run), yet each file must get its own module state (its own
 * control account, token cache and clean-up list live in module scope, see
 * lib/check/file-fixture.ts). Resetting vitest's module registry gives
 * exactly that: our modules are evaluated afresh per file, while the
 * packages Node loaded natively stay loaded. (Not used in partner mode,
 * where the files share state on purpose: see run-suites.ts.)
 */
vi.resetModules();
