import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANE_MODULES, laneModule, readLaneWeights } from '../../lib/runner/check-lanes.js';
import { compiledCopy } from '../../scripts/compile.mjs';
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

  it('holds, beside each folder of check files, the group that loads them (a run a file at a time runs these)', async () => {
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

  it('holds a lane module for each worker a run may have, and the weights that plan the lanes', async () => {
    const tree = await compiledCopy(ROOT);
    const lanes = readdirSync(join(tree, 'suites', 'lanes')).sort();
    expect(lanes).toHaveLength(LANE_MODULES);
    for (let lane = 1; lane <= LANE_MODULES; lane++) {
      const module = readFileSync(join(tree, laneModule(lane)), 'utf8');
      expect(module).toContain(`loadCheckLane(import.meta.url, ${lane}, (file) => import(file))`);
    }
    expect(readLaneWeights(tree)).toEqual(readLaneWeights(ROOT));
  });
});
