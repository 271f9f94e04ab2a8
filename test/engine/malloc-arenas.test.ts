import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { BIN, runCommand } from './support/run-cli.js';

/**
 * bin/conformance.js starts itself again with one glibc malloc arena (a run's peak memory):
 * what the started process was given (/proc/self/environ) and what it passes on (process.env).
 */
const glibcWithExecve =
  process.platform === 'linux' &&
  typeof process.execve === 'function' &&
  !readdirSync('/lib').some((name) => name.startsWith('ld-musl-'));

/** At the exit of the process the CLI ends as: its start-up environment and process.env. */
const REPORT_AT_EXIT = `data:text/javascript,${encodeURIComponent(`
import { readFileSync } from 'node:fs';
process.on('exit', () => {
  const environ = readFileSync('/proc/self/environ', 'utf8').split('\\0');
  process.stderr.write('\\nARENAS ' + JSON.stringify({
    started: environ.filter((entry) => entry.startsWith('MALLOC_ARENA_MAX=')),
    passedOn: process.env.MALLOC_ARENA_MAX ?? null,
    marks: Object.keys(process.env).filter((name) => name.startsWith('PARTNER_ORDERING_')),
  }) + '\\n');
});
`)}`;

async function arenas(env: Record<string, string> = {}) {
  const result = await runCommand(
    process.execPath,
    ['--import', REPORT_AT_EXIT, BIN, '--help'],
    emptyDir(),
    env,
  );
  expect(result.code, result.stderr).toBe(0);
  const line = /^ARENAS (.*)$/m.exec(result.stderr)?.[1];
  expect(line, result.stderr).toBeDefined();
  return JSON.parse(line as string) as {
    started: string[];
    passedOn: string | null;
    marks: string[];
  };
}

describe.skipIf(!glibcWithExecve)('the CLI on glibc Linux', () => {
  it('runs with one malloc arena, and passes neither the variable nor its mark on', async () => {
    expect(await arenas()).toEqual({ started: ['MALLOC_ARENA_MAX=1'], passedOn: null, marks: [] });
  });

  it("keeps the user's own MALLOC_ARENA_MAX, and passes it on", async () => {
    expect(await arenas({ MALLOC_ARENA_MAX: '4' })).toEqual({
      started: ['MALLOC_ARENA_MAX=4'],
      passedOn: '4',
      marks: [],
    });
  });
});
