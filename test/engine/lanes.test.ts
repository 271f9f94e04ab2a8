import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUITES } from '../../lib/config/settings.js';
import { type LaneFile, planLanes } from '../../lib/plan/lanes.js';
import { readLaneWeights, weighed, withoutExtension } from '../../lib/runner/check-lanes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const file = (name: string, seconds: number, burst = false, requests = 0): LaneFile => ({
  file: name,
  seconds,
  requests,
  burst,
});

describe('the lanes of a run of several check files at a time', () => {
  it('gives the heaviest files lanes of their own, and the rest to the lightest lane', () => {
    const plan = planLanes(
      [file('a', 3), file('b', 2), file('c', 1), file('d', 1), file('e', 0.5)],
      3,
    );
    expect(plan).toEqual([['a'], ['b', 'e'], ['c', 'd']]);
  });

  it('spreads the files that send the most as well as the longest', () => {
    const plan = planLanes(
      [
        file('long', 3, false, 10),
        file('busy', 1, false, 1000),
        file('busy2', 1, false, 900),
        file('x', 1, false, 10),
      ],
      2,
    );
    // By seconds alone both busy files would share the lane beside the long one.
    expect(plan).toEqual([
      ['busy', 'x'],
      ['long', 'busy2'],
    ]);
  });

  it('spreads the bursting files, however heavy the others', () => {
    const plan = planLanes(
      [
        file('m', 10),
        file('r1', 1, true),
        file('r2', 1, true),
        file('r3', 1, true),
        file('r4', 1, true),
      ],
      2,
    );
    // By weight all four would join r1 in the lighter lane: two of them at most (four over two lanes).
    expect(plan).toEqual([
      ['m', 'r3', 'r4'],
      ['r1', 'r2'],
    ]);
  });

  it('places every file in exactly one lane, whatever the weights and the lanes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            file: fc.string({ minLength: 1, maxLength: 6 }),
            seconds: fc.double({ min: 0, max: 10, noNaN: true }),
            requests: fc.nat({ max: 2000 }),
            burst: fc.boolean(),
          }),
          { selector: (f) => f.file, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 32 }),
        (files, lanes) => {
          const plan = planLanes(files, lanes);
          expect(plan).toHaveLength(lanes);
          expect(plan.flat().sort()).toEqual(files.map((f) => f.file).sort());
          const share = Math.ceil(files.filter((f) => f.burst).length / lanes);
          const burst = new Set(files.filter((f) => f.burst).map((f) => f.file));
          for (const lane of plan)
            expect(lane.filter((name) => burst.has(name)).length).toBeLessThanOrEqual(share);
          // The same files, the same plan.
          expect(planLanes([...files].reverse(), lanes)).toEqual(plan);
        },
      ),
    );
  });
});

describe('the weights the suite ships (suites/lane-weights.json)', () => {
  const bundled = globSync(DEFAULT_SUITES, { cwd: ROOT })
    .map((file) => withoutExtension(posix.relative('suites', file)))
    .sort();

  it('weigh every bundled check file and no other (after adding one: npm run lanes:weights -- <its path>)', () => {
    const weights = readLaneWeights(ROOT);
    expect(weights, 'suites/lane-weights.json is missing or does not parse').toBeDefined();
    expect(Object.keys(weights?.seconds ?? {}).sort()).toEqual(bundled);
    expect(Object.keys(weights?.requests ?? {}).sort()).toEqual(bundled);
  });

  it('weigh a file they do not name as the median of those they do, and mark the bursting folders', () => {
    const files = weighed(['rate/new.check.js', 'acct/a.check.js'], {
      about: '',
      roundTripMs: 50,
      seconds: { 'acct/a.check': 0.5, 'b/b.check': 1, 'c/c.check': 2 },
      requests: { 'acct/a.check': 10, 'b/b.check': 30, 'c/c.check': 20 },
    });
    expect(files).toEqual([
      { file: 'rate/new.check.js', seconds: 1, requests: 20, burst: true },
      { file: 'acct/a.check.js', seconds: 0.5, requests: 10, burst: false },
    ]);
    expect(weighed(['acct/a.check.js'], undefined)).toEqual([
      { file: 'acct/a.check.js', seconds: 1, requests: 1, burst: false },
    ]);
  });
});
