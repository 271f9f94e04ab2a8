import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AsyncFiles } from '../../lib/runner/async-files.js';
import { emptyDir } from '../support/temp-dir.js';

// allure-results are written through this (lib/runner/allure.ts): off the thread the checks'
// worker waits on, and every file there before `settled` answers.
describe('AsyncFiles', () => {
  it('writes and copies every file asked for, making the folder, before settled answers', async () => {
    const dir = join(emptyDir('async-files'), 'allure-results');
    const files = new AsyncFiles(dir);
    const source = join(emptyDir('async-files-source'), 'from.txt');
    writeFileSync(source, 'copied');
    for (let i = 0; i < 50; i++) files.write(`${i}-result.json`, JSON.stringify({ i }));
    files.write('bytes.bin', Uint8Array.from([1, 2, 3]));
    files.copy(source, 'copy.txt');
    await files.settled();
    expect(readdirSync(dir)).toHaveLength(52);
    expect(JSON.parse(readFileSync(join(dir, '49-result.json'), 'utf8'))).toEqual({ i: 49 });
    expect([...readFileSync(join(dir, 'bytes.bin'))]).toEqual([1, 2, 3]);
    expect(readFileSync(join(dir, 'copy.txt'), 'utf8')).toBe('copied');
  });

  it('answers settled with the first write that failed, naming the file and why', async () => {
    const dir = emptyDir('async-files-failing');
    const files = new AsyncFiles(dir);
    files.write('fine.json', '{}');
    files.copy(join(dir, 'no-such-source'), 'copy.txt');
    await expect(files.settled()).rejects.toThrow(
      `could not write ${join(dir, 'copy.txt')} (ENOENT)`,
    );
    expect(readdirSync(dir)).toEqual(['fine.json']);
  });

  it('goes on with the writes after one Node refuses before it begins', async () => {
    // One write at a time: a write refused at once (a name with a NUL byte) must not hold up those after it.
    const dir = emptyDir('async-files-refused');
    const files = new AsyncFiles(dir);
    files.write('before.json', '1');
    files.write('bad\u0000name.json', '2');
    for (let i = 0; i < 5; i++) files.write(`after-${i}.json`, String(i));
    await expect(files.settled()).rejects.toThrow(/could not write .*bad.*name\.json/);
    expect(readdirSync(dir).sort()).toEqual([
      'after-0.json',
      'after-1.json',
      'after-2.json',
      'after-3.json',
      'after-4.json',
      'before.json',
    ]);
  });

  it('answers settled with a folder it could not make, and with an error handed to fail', async () => {
    const parent = emptyDir('async-files-not-a-folder');
    writeFileSync(join(parent, 'file'), '');
    const files = new AsyncFiles(join(parent, 'file', 'allure-results'));
    files.write('a.json', '{}');
    await expect(files.settled()).rejects.toThrow(/ENOTDIR|EEXIST/);

    const other = new AsyncFiles(emptyDir('async-files-fail'));
    other.fail(new Error('allure-vitest broke'));
    other.fail(new Error('a second error'));
    await expect(other.settled()).rejects.toThrow('allure-vitest broke');
  });
});
