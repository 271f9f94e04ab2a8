import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { expectCrashedGroupReport } from './support/crashed-group.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

// A group (one vitest file loading a folder's check files: lib/runner/check-group.ts) run
// several files at a time, as against a target elsewhere: its check files go side by side.
const CONTROL_TOKEN = 'side-by-side-control-token';
let target: TinyTarget;

beforeAll(async () => {
  target = await startTinyTarget('unauthorized', CONTROL_TOKEN);
});

afterAll(async () => {
  await target?.close();
});

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

describe('a group run several check files at a time', () => {
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
