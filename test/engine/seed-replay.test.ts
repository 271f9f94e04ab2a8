import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

let target: TinyTarget;

beforeAll(async () => {
  target = await startTinyTarget('unauthorized');
});

afterAll(async () => {
  await target?.close();
});

/** The generated inputs a fixture check noted (fast-check samples, faker values, property inputs). */
async function generated(seed: string): Promise<{ notes: string[]; seed: number }> {
  const dir = join(emptyDir(), `seed-${seed}`);
  const result = await runCli([
    '--target',
    target.origin,
    '--report-dir',
    dir,
    '--seed',
    seed,
    '--num-runs',
    '25',
    ...fixtureSuites('seeded'),
  ]);
  expect(result.code, result.stderr).toBe(0);
  const report = readReport(dir);
  const checked = report.results.find((r) => r.notes?.some((n) => n.startsWith('fast-check:')));
  return { notes: checked?.notes ?? [], seed: report.seed };
}

describe('--seed', () => {
  it('replays the same generated inputs; another seed draws others', async () => {
    const [first, second, other] = await Promise.all([
      generated('424242'),
      generated('424242'),
      generated('7'),
    ]);
    expect(first.seed).toBe(424242);
    expect(first.notes.length).toBeGreaterThanOrEqual(3);
    expect(second.notes).toEqual(first.notes);
    expect(other.notes[0]).not.toEqual(first.notes[0]);
    expect(other.notes[1]).not.toEqual(first.notes[1]);
  });
});
