import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`). The conformance suites in `suites/` are not
// collected here: they need a target, and `lib/runner` drives them with its own config.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
