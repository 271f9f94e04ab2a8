import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';

/** The notes of the fixture checks, by kind: `own <id> <id>` and `file <id>`. */
async function accountNotes(args: string[]): Promise<{ own: string[][]; file: string[] }> {
  const dir = join(emptyDir(), 'own-accounts');
  const result = await runCli(['--report-dir', dir, ...args, ...fixtureSuites('own-accounts')]);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  const notes = readReport(dir).results.flatMap((r) => r.notes ?? []);
  return {
    own: notes.filter((n) => n.startsWith('own ')).map((n) => n.split(' ').slice(1)),
    file: notes.filter((n) => n.startsWith('file ')).map((n) => n.split(' ')[1] ?? ''),
  };
}

describe('ctx.account() in checks on accounts of their own (checksUseOwnAccounts)', () => {
  it.each([
    ['one after another', ['--concurrency', '1']],
    ['side by side', ['--concurrency', '2']],
    ["side by side, the bundled reference's default", []],
  ])('%s: an account per check, made once; the other file shares its account', async (_, args) => {
    const { own, file } = await accountNotes(args);
    expect(own).toHaveLength(2);
    for (const [first, again] of own) expect(again).toBe(first);
    expect(own[0]?.[0]).not.toBe(own[1]?.[0]);
    expect(file).toHaveLength(2);
    expect(file[1]).toBe(file[0]);
    expect(own.flat()).not.toContain(file[0]);
  });
});

describe("a check's clean-ups (ctx.onCleanup)", () => {
  it.each([
    ['one after another', ['--concurrency', '1']],
    ['side by side', ['--concurrency', '2']],
  ])('%s: run as the check ends, with its key not yet revoked', async (_, args) => {
    const dir = join(emptyDir(), 'cleanups');
    const result = await runCli(['--report-dir', dir, ...args, ...fixtureSuites('cleanups')]);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const notes = readReport(dir).results.flatMap((r) => r.notes ?? []);
    // Run at the end of the file, after the revocation, the same request got 401 and no note was kept.
    expect(notes).toContain('cleanup 200');
  });
});

describe('accounts made ahead (lib/control/ready-accounts.ts), files side by side', () => {
  it("the requests that made a check's account, key and token are its evidence; its first plain key is that key", async () => {
    const dir = join(emptyDir(), 'ready-accounts');
    const result = await runCli([
      '--report-dir',
      dir,
      '--concurrency',
      '2',
      ...fixtureSuites('ready-accounts'),
    ]);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const results = readReport(dir).results.filter((r) => r.notes?.length);
    const calls = (r: (typeof results)[number]) =>
      (r.evidence ?? []).map(
        (e) => `${e.request.method} ${e.request.url.replace(/acct_\w+|odp_\w+/g, 'ID')}`,
      );
    const plain = results.find((r) => r.notes?.some((n) => n.startsWith('plain ')));
    const scoped = results.find((r) => r.notes?.some((n) => n.startsWith('scoped ')));
    // Made ahead: the account, its key and the key's token, recorded in the check that took them;
    // no other key made, no other token asked for.
    expect(calls(plain as (typeof results)[number]).slice(0, 3)).toEqual([
      'POST /__control/accounts',
      'POST /__control/accounts/ID/keys',
      'POST /api/on-demand/v1/oauth/token',
    ]);
    expect(
      calls(plain as (typeof results)[number]).filter((c) => c.endsWith('/keys')),
    ).toHaveLength(1);
    expect(
      calls(plain as (typeof results)[number]).filter((c) => c.endsWith('/oauth/token')),
    ).toHaveLength(1);
    expect(plain?.notes).toContain('account 200');
    // Asked for a key with scopes first: the key made ahead is revoked as the new one is made
    // (both at once, in either order), before the check goes on.
    const scopedCalls = calls(scoped as (typeof results)[number]);
    expect(scopedCalls.slice(0, 3)).toEqual([
      'POST /__control/accounts',
      'POST /__control/accounts/ID/keys',
      'POST /api/on-demand/v1/oauth/token',
    ]);
    expect(scopedCalls.slice(3, 5).sort()).toEqual([
      'POST /__control/accounts/ID/keys',
      'POST /__control/keys/ID/revoke',
    ]);
  });

  it('a run that went to its end leaves what its checks asked for as the forecast of its shape', async () => {
    // A temporary folder of its own: the forecast lives beside vitest's cache there.
    const tmp = emptyDir();
    const args = ['--concurrency', '2', ...fixtureSuites('ready-accounts')];
    const result = await runCli(['--report-dir', join(tmp, 'report'), ...args], { TMPDIR: tmp });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const file = join(
      tmp,
      'partner-ordering-conformance-vite',
      `accounts-ahead-${process.getuid?.() ?? 'user'}.json`,
    );
    const shapes = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    // One shape: both checks asked for an account with no settings.
    expect(shapes).toEqual([{ settings: ['{}'], asks: [[0, 2]] }]);
  });
});
