import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from './support/report-files.js';
import { emptyDir, fixtureSuites, runCli } from './support/run-cli.js';

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
    ['one after another', []],
    ['side by side', ['--concurrency', '2']],
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
    ['one after another', []],
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
