import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../support/files-below.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Intl's formatting and collation map ICU's locale data into the process on first use: number
 * formatting alone was ~8 MB of a conformance run's peak memory (docs/performance.md). The
 * suite, the engine and the reference write the few formats they need by hand.
 */
describe("a run's code uses no locale data", () => {
  it('calls no toLocaleString, localeCompare or Intl', () => {
    const sources = ['lib', 'server', 'suites', 'rules', 'bin']
      .flatMap((dir) => filesBelow(`${ROOT}${dir}`, ''))
      .filter((file) => /\.(ts|mts|js|mjs)$/.test(file) && !file.endsWith('.d.ts'));
    const users = sources
      .filter((file) =>
        /\.toLocale\w*\(|\.localeCompare\(|\bIntl\./.test(readFileSync(file, 'utf8')),
      )
      .map((file) => file.slice(ROOT.length));
    expect(sources.length).toBeGreaterThan(500);
    expect(users).toEqual([]);
  });
});
