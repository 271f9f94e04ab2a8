import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../lib/config/profile.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * Through the CLI: `--draft-profile FILE` against the
 * bundled reference writes a profile equivalent to the reference's own
 * (config/reference.json), which loads with --profile and certifies the
 * reference clean; a second draft to the same file is refused.
 */
describe('--draft-profile against the bundled reference', () => {
  it('writes a profile equivalent to the reference dialect, which certifies the reference', async () => {
    const dir = emptyDir('draft-profile-');
    const file = join(dir, 'drafted.json');
    const drafted = await runCli(['--draft-profile', file], {}, dir);
    expect(drafted.code, drafted.stderr).toBe(0);
    expect(drafted.stdout).toContain('Draft profile written: drafted.json');
    expect(drafted.stdout).toContain('TODO: ');
    expect(drafted.stdout).not.toMatch(/checks \d+/);
    const text = readFileSync(file, 'utf8');
    for (const output of [text, drafted.stdout, drafted.stderr]) {
      expect(output).not.toMatch(/_sk_[A-Za-z0-9]{6}/);
      expect(output).not.toMatch(/odp_at_[A-Za-z0-9]{6}/);
    }
    const json = JSON.parse(text);
    expect(json.version).toBe(2);
    expect(json.description).toContain('TODO');

    const draft = loadProfile(file, '--profile', dir).dialect;
    const reference = loadProfile('reference', '--profile', process.cwd()).dialect;
    expect(isDeepStrictEqual(draft, reference), JSON.stringify(draft)).toBe(true);

    const run = await runCli(
      ['--profile', file, '--report-dir', join(dir, 'reports'), '--only', 'ORDER,READ,CANCEL,HOOK'],
      {},
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/failed 0 .*error 0/);
  });

  it('never overwrites a file: exit 2 naming it, the file untouched', async () => {
    const dir = emptyDir('draft-profile-');
    const file = join(dir, 'mine.json');
    const first = await runCli(['--draft-profile', file], {}, dir);
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(file, 'utf8');
    const mtime = statSync(file).mtimeMs;
    const again = await runCli(['--draft-profile', file], {}, dir);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toMatch(
      /^conformance: error: --draft-profile: ".*mine\.json" exists: a draft never overwrites a file/,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });
});
