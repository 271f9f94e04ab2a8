import { readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { BIN, runCommand } from './support/run-cli.js';

/**
 * bin/conformance.js starts itself again with one glibc malloc arena (a run's peak memory) and a
 * young generation of 4 MB a half (its thread's garbage collection): what the started process
 * was given (/proc/self/environ, its Node flags) and what it passes on (process.env).
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
    startedAgain: environ.some((entry) => entry.startsWith('PARTNER_ORDERING_CONFORMANCE_STARTED_AGAIN=')),
    started: environ.filter((entry) => entry.startsWith('MALLOC_ARENA_MAX=')),
    passedOn: process.env.MALLOC_ARENA_MAX ?? null,
    marks: Object.keys(process.env).filter((name) => name.startsWith('PARTNER_ORDERING_')),
    youngGeneration: process.execArgv.filter((arg) => /^--(min|max)-semi-space-size/.test(arg)),
    helpers: process.execArgv.filter((arg) => arg.startsWith('--v8-pool-size')),
  }) + '\\n');
});
`)}`;

async function startedAs(
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
  { args = [], dotenv }: { args?: string[]; dotenv?: string } = {},
) {
  const cwd = emptyDir();
  if (dotenv !== undefined) writeFileSync(`${cwd}/.env`, dotenv);
  const result = await runCommand(
    process.execPath,
    [...nodeFlags, '--import', REPORT_AT_EXIT, BIN, ...args, '--help'],
    cwd,
    env,
  );
  expect(result.code, result.stderr).toBe(0);
  const line = /^ARENAS (.*)$/m.exec(result.stderr)?.[1];
  expect(line, result.stderr).toBeDefined();
  return JSON.parse(line as string) as {
    startedAgain: boolean;
    started: string[];
    passedOn: string | null;
    marks: string[];
    youngGeneration: string[];
    helpers: string[];
  };
}

/** V8's helper threads as the CLI sets them: as many as the cores, no flag at Node's own 4. */
const HELPERS = Math.min(4, Math.max(1, availableParallelism()));
const HELPER_FLAGS = HELPERS < 4 ? [`--v8-pool-size=${HELPERS}`] : [];

describe.skipIf(!glibcWithExecve)('the CLI on glibc Linux', () => {
  it('runs with one malloc arena, a 4 MB young generation and a helper thread per core, and passes neither the variable nor its mark on', async () => {
    expect(await startedAs()).toEqual({
      startedAgain: true,
      started: ['MALLOC_ARENA_MAX=1'],
      passedOn: null,
      marks: [],
      youngGeneration: ['--min-semi-space-size=4'],
      helpers: HELPER_FLAGS,
    });
  });

  it("keeps the user's own number of helper threads", async () => {
    expect(await startedAs({}, ['--v8-pool-size=3'])).toMatchObject({
      startedAgain: true,
      helpers: ['--v8-pool-size=3'],
    });
    expect(await startedAs({ NODE_OPTIONS: '--v8-pool-size=3' })).toMatchObject({
      startedAgain: true,
      helpers: [],
    });
  });

  it("leaves Node's helper threads as they are for a run that may go to a target elsewhere or several files at a time", async () => {
    const leftAlone = { startedAgain: true, helpers: [] };
    expect(await startedAs({}, [], { args: ['--target', 'http://127.0.0.1:9'] })).toMatchObject(
      leftAlone,
    );
    expect(await startedAs({}, [], { args: ['--concurrency=4'] })).toMatchObject(leftAlone);
    expect(await startedAs({ CONFORMANCE_PROFILE: 'mine.json' })).toMatchObject(leftAlone);
    expect(
      await startedAs({}, [], { dotenv: 'TARGET_BASE_URL=http://127.0.0.1:9\n' }),
    ).toMatchObject(leftAlone);
    // A .env that names no target changes nothing.
    expect(await startedAs({}, [], { dotenv: 'SEED=1\n' })).toMatchObject({
      helpers: HELPER_FLAGS,
    });
  });

  it("keeps the user's own MALLOC_ARENA_MAX, and passes it on", async () => {
    expect(await startedAs({ MALLOC_ARENA_MAX: '4' })).toEqual({
      startedAgain: true,
      started: ['MALLOC_ARENA_MAX=4'],
      passedOn: '4',
      marks: [],
      youngGeneration: ['--min-semi-space-size=4'],
      helpers: HELPER_FLAGS,
    });
  });

  it("keeps the user's own young generation", async () => {
    expect(await startedAs({}, ['--max-semi-space-size=2'])).toEqual({
      startedAgain: true,
      started: ['MALLOC_ARENA_MAX=1'],
      passedOn: null,
      marks: [],
      youngGeneration: ['--max-semi-space-size=2'],
      helpers: HELPER_FLAGS,
    });
  });

  it("keeps a young generation given in NODE_OPTIONS, and stays away from a debugger's start", async () => {
    expect(await startedAs({ NODE_OPTIONS: '--max-semi-space-size=2' })).toEqual({
      startedAgain: true,
      started: ['MALLOC_ARENA_MAX=1'],
      passedOn: null,
      marks: [],
      youngGeneration: [],
      helpers: HELPER_FLAGS,
    });
    expect(await startedAs({ NODE_OPTIONS: '--inspect=127.0.0.1:0' })).toMatchObject({
      startedAgain: false,
      started: [],
    });
  });

  it('is not started again when the user set all three', async () => {
    expect(
      await startedAs({ MALLOC_ARENA_MAX: '2' }, ['--min-semi-space-size=2', '--v8-pool-size=2']),
    ).toEqual({
      startedAgain: false,
      started: ['MALLOC_ARENA_MAX=2'],
      passedOn: '2',
      marks: [],
      youngGeneration: ['--min-semi-space-size=2'],
      helpers: ['--v8-pool-size=2'],
    });
  });
});
