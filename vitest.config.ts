import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The CLI end to end: each of these starts `bin/conformance.js` in a child
 * process (or several), so each costs seconds of start-up. Every other
 * file of test/engine is a unit test.
 */
const ENGINE_RUNS = [
  'test/engine/cli-run.test.ts',
  'test/engine/compiled-copy.test.ts',
  'test/engine/concurrency-run.test.ts',
  'test/engine/isolation-run.test.ts',
  'test/engine/live-orders.test.ts',
  'test/engine/own-accounts-run.test.ts',
  'test/engine/redaction-run.test.ts',
  'test/engine/seed-replay.test.ts',
];

// The project's own tests (`npm test`): four vitest projects, each runnable alone
// (`npm run test:unit`, `test:server`, `test:e2e`, `test:matrices`), so that what each
// part costs shows. The conformance suites in `suites/` are not collected here: they
// need a target, and `lib/runner` drives them with its own config.
export default defineConfig({
  test: {
    // No time budget: a busy machine makes a test slower, never failed. 0 is no timeout;
    // a test that waits does so on an event, and every request the engine sends has its own timeout.
    testTimeout: 0,
    hookTimeout: 0,
    pool: 'forks',
    // One temporary folder for the run's tests, removed at its end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    // Test files at a time: vitest's default is one core fewer than the machine has, which on
    // two cores is one file at a time, though most files spend their time waiting on a child
    // process, a server or a database (one at a time, `npm test` used 1.2 of 2 cores, 295 s). Three
    // there (195 s, 1.8 cores; two: 220 s); vitest's own default on bigger machines.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'test/core/**/*.test.ts',
            'test/rules/**/*.test.ts',
            'test/engine/**/*.test.ts',
          ],
          exclude: ENGINE_RUNS,
        },
      },
      // The reference server's own tests (inject and port 0, a few child processes).
      { extends: true, test: { name: 'server', include: ['test/server/**/*.test.ts'] } },
      // Whole conformance runs through the CLI, as a user starts them.
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', ...ENGINE_RUNS] },
      },
      // The matrices (test/matrices/README.md): every defect of the reference against its area's
      // checks and the defect catalogue, the dialect, draft and OpenAPI matrices, the client defects.
      // `npm run test:faults`, its old name, still runs it.
      { extends: true, test: { name: 'matrices', include: ['test/matrices/**/*.test.ts'] } },
    ],
  },
});
