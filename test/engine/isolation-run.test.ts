import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { expectCrashedGroupReport } from './support/crashed-group.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

const CONTROL_TOKEN = 'isolation-control-token';
let target: TinyTarget;

beforeAll(async () => {
  target = await startTinyTarget('unauthorized', CONTROL_TOKEN);
});

afterAll(async () => {
  await target?.close();
});

/** The notes of the four isolation fixtures: how often each saw the module state touched, and on which worker. */
async function notes(
  args: string[],
  env: Record<string, string> = {},
  suites = fixtureSuites('isolation'),
): Promise<string[][]> {
  return (await passed(args, env, suites)).map((r) => r.notes ?? []);
}

async function passed(args: string[], env: Record<string, string>, suites: string[]) {
  const dir = join(emptyDir(), 'isolation');
  const result = await runCli(
    ['--target', target.origin, '--report-dir', dir, ...args, ...suites],
    env,
  );
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return readReport(dir).results.filter((r) => r.verdict === 'passed');
}

describe('check files in reused workers', () => {
  it('with a control API: each file gets fresh module state and evidence of its own, though the engine stays loaded', async () => {
    // Two workers for four files (the default with a control API is more): workers are reused.
    // From the sources: the fixtures import the sources' engine, which is then the run's own, kept
    // from file to file (lib/runner/fresh-modules.ts keeps the engine of the run's own root only).
    const seen = await notes(
      ['--control-url', `${target.origin}/__control`, '--concurrency', '2'],
      { CONTROL_TOKEN, CONFORMANCE_FROM_SOURCE: '1' },
    );
    expect(seen).toHaveLength(4);
    // The suites' module state: fresh in every file.
    expect(seen.map((n) => n[0])).toEqual(['touches 1', 'touches 1', 'touches 1', 'touches 1']);
    // The engine's state of a file (its replay book, which numbers its exchanges) is the file's.
    expect(seen.map((n) => n[2])).toEqual(['exchange 1', 'exchange 1', 'exchange 1', 'exchange 1']);
    // Four files on at most two workers: some shared a worker, so the test above means something.
    expect(new Set(seen.map((n) => n[1])).size).toBeLessThan(4);
  });

  it('loaded as one group (one vitest file, as a compiled tree runs its folders): each file still gets fresh module state, evidence and its name of its own', async () => {
    const results = await passed(
      ['--control-url', `${target.origin}/__control`, '--concurrency', '1'],
      { CONTROL_TOKEN, CONFORMANCE_FROM_SOURCE: '1' },
      fixtureSuites('isolation-group', '*.group.ts'),
    );
    const seen = results.map((r) => r.notes ?? []);
    expect(seen).toHaveLength(4);
    // Without the reset between the group's files, the second would see 'touches 2'.
    expect(seen.map((n) => n[0])).toEqual(['touches 1', 'touches 1', 'touches 1', 'touches 1']);
    // One fixture (and replay book) per file, not one for the group: each numbers from 1.
    expect(seen.map((n) => n[2])).toEqual(['exchange 1', 'exchange 1', 'exchange 1', 'exchange 1']);
    // One vitest file, so one worker: the tests above mean something.
    expect(new Set(seen.map((n) => n[1])).size).toBe(1);
    // The reports name each check file, not the group that loaded it.
    expect(results.map((r) => r.file).sort()).toEqual(
      [0, 1, 2, 3].map((n) => `test/engine/fixtures/isolation/file-${n}.check.ts`),
    );
  });

  it('in partner mode: the files run one after another in one worker and share module state', async () => {
    const opened = target.openedBy.length;
    const seen = await notes([]);
    expect(seen.map((n) => n[0]).sort()).toEqual([
      'touches 1',
      'touches 2',
      'touches 3',
      'touches 4',
    ]);
    expect(new Set(seen.map((n) => n[1])).size).toBe(1);
    // And its connections (lib/check/run-shared.ts): a file that opened its own would open one
    // with its first request, each of the four. Fewer, not one: a socket idle past the suite's
    // keep-alive (a machine too busy to start the next file within seconds) is opened anew.
    const byFiles = target.openedBy.slice(opened).filter((first) => first.endsWith('/isolation'));
    expect(byFiles.length).toBeGreaterThan(0);
    expect(byFiles.length).toBeLessThan(4);
  });
});

// A group (one vitest file loading a folder's check files: lib/runner/check-group.ts) run
// several files at a time, as against a target elsewhere: its check files go side by side.
describe('a group run several check files at a time', () => {
  function runGroup(fixture: string, dir: string) {
    return runCli(
      [
        '--target',
        target.origin,
        '--control-url',
        `${target.origin}/__control`,
        '--concurrency',
        '2',
        '--report-dir',
        dir,
        ...fixtureSuites(fixture, '*.group.ts'),
      ],
      { CONTROL_TOKEN, CONFORMANCE_FROM_SOURCE: '1' },
    );
  }

  it('runs its check files side by side: two checks that each wait for the other both pass, each named by its file', async () => {
    const dir = join(emptyDir(), 'side-by-side');
    const result = await runGroup('side-by-side-group', dir);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const ran = readReport(dir).results.filter((r) => r.verdict !== 'skipped');
    // One after another, the first check would wait for the second until its time limit: error.
    expect(ran.map((r) => [r.rule_id, r.verdict, r.notes, r.file])).toEqual(
      [
        [
          pickRule('MUST', 0).id,
          'passed',
          ['met b'],
          'test/engine/fixtures/side-by-side/a.check.ts',
        ],
        [
          pickRule('MUST', 1).id,
          'passed',
          ['met a'],
          'test/engine/fixtures/side-by-side/b.check.ts',
        ],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
  });

  it('whose second file breaks: both files end as error, as not loaded, naming the broken one', async () => {
    const dir = join(emptyDir(), 'crash-side-by-side');
    const result = await runGroup('crashing-group', dir);
    expect(result.code, result.stderr).toBe(2);
    expectCrashedGroupReport(dir);
  });
});
