import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { burstFolders } from '../../lib/runner/burst-folders.js';
import { compiledCopy, joinFolders } from '../../scripts/compile.mjs';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A checkout runs a compiled copy of its sources, one per content (bin/conformance.js,
 * scripts/compile.mjs). vitest's module cache of that copy's checks lies inside it, and goes
 * when the copy is pruned; in the temporary folder, one per copy, every change of the sources
 * left a folder there for good.
 */
describe("a checkout's compiled copy", () => {
  it('keeps the module cache of its checks inside itself, none in the temporary folder', async () => {
    const tmp = emptyDir('compiled-copy-');
    const run = await runCli(['--only', 'TOKEN-01', '--report-dir', join(tmp, 'report')], {
      TMPDIR: tmp,
    });
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);

    const tree = await compiledCopy(ROOT);
    const stamp = JSON.parse(readFileSync(join(tree, 'compiled.json'), 'utf8')) as {
      moduleCache?: string;
    };
    expect(stamp.moduleCache).toBe('module-cache');
    const cache = join(tree, 'module-cache');
    expect(existsSync(cache) && readdirSync(cache).length).toBeGreaterThan(0);
    expect(readdirSync(tmp).filter((name) => name.includes('conformance-modules'))).toEqual([]);
  });

  it('holds, beside each folder of check files, the group that loads them (a run several files at a time runs these)', async () => {
    const tree = await compiledCopy(ROOT);
    const folders = readdirSync(join(tree, 'suites'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(tree, 'suites', entry.name))
      .filter((folder) => readdirSync(folder).some((name) => name.endsWith('.check.js')));
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) {
      const name = folder.split('/').pop() as string;
      const group = readFileSync(join(folder, `${name}.group.js`), 'utf8');
      const files = readdirSync(folder)
        .filter((file) => file.endsWith('.check.js'))
        .sort()
        .map((file) => `./${file}`);
      expect(group).toContain(`loadCheckGroup(import.meta.url, ${JSON.stringify(files)}`);
    }
  });

  it('holds in suites/ the groups of several folders in a row, each check file of the folders whose checks provoke no 429 in one of them once, in order (a run a file at a time runs these)', async () => {
    const tree = await compiledCopy(ROOT);
    const suites = join(tree, 'suites');
    const alone = burstFolders();
    expect(alone.size).toBeGreaterThan(0);
    const checkFiles = readdirSync(suites, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.check.js') && !alone.has(name.split('/')[0] as string))
      .map((name) => `./${name}`)
      .sort();
    const joined = readdirSync(suites)
      .filter((name) => name.endsWith('.run-group.js'))
      .sort();
    expect(joined.length).toBeGreaterThan(1);
    expect(joined.length).toBeLessThan(checkFiles.length / 8);
    const loaded = joined.flatMap((name) => {
      const text = readFileSync(join(suites, name), 'utf8');
      const files = /loadCheckGroup\(import\.meta\.url, (\[.*?\]),/.exec(text)?.[1];
      expect(files, name).toBeDefined();
      const list = JSON.parse(files as string) as string[];
      // Named after the first and the last folder it loads.
      const folderOf = (file: string) => file.split('/')[1];
      expect(name).toBe(
        `${folderOf(list[0] as string)}-${folderOf(list.at(-1) as string)}.run-group.js`,
      );
      return list;
    });
    expect(loaded).toEqual(checkFiles);
  });
});

describe('folders joined into groups of at least so many check files', () => {
  it('joins whole folders in order until a group holds enough; a short last run joins the one before', () => {
    const folders = [
      ['a1', 'a2'],
      ['b1'],
      ['c1', 'c2', 'c3'],
      ['d1'],
      ['e1', 'e2', 'e3', 'e4'],
      ['f1'],
    ];
    expect(joinFolders(folders, 3)).toEqual([
      ['a1', 'a2', 'b1'],
      ['c1', 'c2', 'c3'],
      ['d1', 'e1', 'e2', 'e3', 'e4', 'f1'],
    ]);
  });

  it('keeps a last run of half the least or more as a group of its own, and one group for fewer files', () => {
    expect(
      joinFolders(
        [
          ['a1', 'a2', 'a3', 'a4'],
          ['b1', 'b2'],
        ],
        4,
      ),
    ).toEqual([
      ['a1', 'a2', 'a3', 'a4'],
      ['b1', 'b2'],
    ]);
    expect(joinFolders([['a1'], ['b1']], 16)).toEqual([['a1', 'b1']]);
    expect(joinFolders([], 16)).toEqual([]);
  });
});
