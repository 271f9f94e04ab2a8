import { faker } from '@faker-js/faker/locale/en_US';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CheckRun } from '../../lib/check/check-run.js';
import { propertyParams, runProperty } from '../../lib/check/property.js';
import { runPropertyInLanes } from '../../lib/check/property-lanes.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { HarnessError } from '../../lib/violations/harness-error.js';
import { ruleById } from '../../rules/index.js';

const rule = ruleById('MODEL-01');
const params = (seed: number) => propertyParams<[number[]]>(seed, rule.id, 100);
const arbitrary = fc.array(fc.nat(1000), { maxLength: 8 });

/** Resolves after other runs in flight had a turn, so that lanes interleave. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function record(run: CheckRun, url: string): void {
  run.recorder.record({
    channel: 'api',
    startedAt: new Date(0),
    durationMs: 1,
    method: 'GET',
    url,
    requestHeaders: {},
    status: 200,
  });
}

/** A property that breaks on arrays holding a number over 900: lanes and fc.check alike. */
function breaksOver900(run: CheckRun) {
  return async (values: number[]) => {
    record(run, `/sum/${values.join('-')}`);
    await tick();
    if (values.some((v) => v > 900)) {
      run.violate({
        code: 'VALUE',
        pointer: '',
        expected: 'no value over 900',
        received: values,
        message: `saw ${values.join(',')}`,
      });
    }
  };
}

// CheckContext.propertyInLanes (issue 16): runs of a property go out several at a time, each
// lane with state of its own, and a failure still replays by the run's seed and path.
describe('a property in lanes', () => {
  test('tries exactly the inputs fc.check tries, each once, in lanes made at most `count` times', async () => {
    const sequential: string[] = [];
    await fc.check(
      fc.asyncProperty(arbitrary, async (v) => {
        sequential.push(v.join(','));
      }),
      params(11),
    );
    const run = new CheckRun(rule, new Redactor());
    const inLanes: string[] = [];
    let made = 0;
    const busy = new Set<number>();
    await runPropertyInLanes(
      run,
      new Redactor(),
      arbitrary,
      { count: 4, make: async () => made++ },
      async (v, lane) => {
        // A lane runs one input at a time.
        expect(busy.has(lane)).toBe(false);
        busy.add(lane);
        await tick();
        inLanes.push(v.join(','));
        busy.delete(lane);
      },
      params(11),
      faker,
    );
    expect(made).toBe(4);
    expect([...inLanes].sort()).toEqual([...sequential].sort());
    expect(run.notes).toEqual(['property held for 100 generated inputs']);
  });

  test('reports the same counterexample, seed and path as ctx.property, with that run’s evidence only', async () => {
    const one = new CheckRun(rule, new Redactor());
    await runProperty(one, new Redactor(), arbitrary, breaksOver900(one), params(5));
    const lanes = new CheckRun(rule, new Redactor());
    await runPropertyInLanes(
      lanes,
      new Redactor(),
      arbitrary,
      { count: 8, make: async () => undefined },
      breaksOver900(lanes),
      params(5),
      faker,
    );
    expect(one.counterexample).toBeDefined();
    expect(lanes.counterexample).toEqual(one.counterexample);
    expect(lanes.violations).toEqual(one.violations);
    const urls = lanes.recorder.take().evidence.map((ex) => ex.request.url);
    expect(urls).toEqual([`/sum/${(lanes.violations[0]!.received as number[]).join('-')}`]);
  });

  test('a harness error in a run ends the property as an error, never a counterexample', async () => {
    const run = new CheckRun(rule, new Redactor());
    const broken = new HarnessError('HARNESS_NETWORK', 'connection reset');
    await expect(
      runPropertyInLanes(
        run,
        new Redactor(),
        arbitrary,
        { count: 3, make: async () => undefined },
        async (v) => {
          await tick();
          if (v.length > 3) throw broken;
        },
        params(3),
        faker,
      ),
    ).rejects.toBe(broken);
    expect(run.counterexample).toBeUndefined();
    expect(run.violations).toEqual([]);
  });

  test('a run draws the same faker values in whichever lane it runs', async () => {
    const drawn = async (count: number) => {
      const drawnBy: string[] = [];
      const run = new CheckRun(rule, new Redactor());
      await runPropertyInLanes(
        run,
        new Redactor(),
        arbitrary,
        { count, make: async () => undefined },
        async (v) => {
          await tick();
          const scoped = run.scopedFaker();
          if (!scoped) throw new Error('no faker of its own in a run');
          drawnBy.push(`${v.join(',')}: ${scoped.location.state()} ${scoped.string.numeric(6)}`);
        },
        params(9),
        faker,
      );
      return drawnBy.sort();
    };
    expect(await drawn(5)).toEqual(await drawn(1));
  });
});
