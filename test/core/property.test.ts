import { faker } from '@faker-js/faker/locale/en_US';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CheckRun } from '../../lib/check/check-run.js';
import { propertyParams, runProperty } from '../../lib/check/property.js';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ReplayBook } from '../../lib/evidence/trace.js';
import { HarnessError } from '../../lib/violations/harness-error.js';
import { ruleById } from '../../rules/index.js';

const rule = ruleById('MODEL-01');
const params = (seed: number) => propertyParams<[number[]]>(seed, rule.id, 100);
const arbitrary = fc.array(fc.nat(1000), { maxLength: 8 });

function newRun(): CheckRun {
  const redactor = new Redactor();
  return new CheckRun(rule, new EvidenceRecorder(redactor, new ReplayBook()), redactor);
}

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

// CheckContext.propertyInLanes: runs of a property go out several at a time, each
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
    const run = newRun();
    const inLanes: string[] = [];
    let made = 0;
    const busy = new Set<number>();
    const outcome = await run.execute(() =>
      runProperty(
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
      ),
    );
    expect(made).toBe(4);
    expect([...inLanes].sort()).toEqual([...sequential].sort());
    expect(outcome.notes).toEqual(['property held for 100 generated inputs']);
  });

  test('reports the same counterexample, seed and path in 8 lanes as in one, with that run’s evidence only', async () => {
    const inLanes = async (count: number) => {
      const run = newRun();
      const outcome = await run.execute(() =>
        runProperty(
          run,
          new Redactor(),
          arbitrary,
          { count, make: async () => undefined },
          breaksOver900(run),
          params(5),
          faker,
        ),
      );
      return { run, outcome };
    };
    const one = await inLanes(1);
    const lanes = await inLanes(8);
    expect(one.run.counterexample).toBeDefined();
    expect(one.outcome.verdict).toBe('failed');
    expect(lanes.run.counterexample).toEqual(one.run.counterexample);
    expect(lanes.outcome.violations).toEqual(one.outcome.violations);
    const urls = lanes.outcome.evidence.map((ex) => ex.request.url);
    const received = lanes.outcome.violations[0]!.received as number[];
    expect(urls).toEqual([`/sum/${received.join('-')}`]);
    // The one report says what replays it: seed, path and the counterexample.
    const note = lanes.outcome.notes.find((n) => n.startsWith('counterexample'));
    expect(note).toContain(`seed ${lanes.run.counterexample!.seed}`);
    expect(note).toContain(`path "${lanes.run.counterexample!.path}"`);
    expect(note).toContain(lanes.run.counterexample!.value);
  });

  test('a harness error in a run ends the property as an error, never a counterexample', async () => {
    const run = newRun();
    const broken = new HarnessError('HARNESS_NETWORK', 'connection reset');
    const outcome = await run.execute(() =>
      runProperty(
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
    );
    expect(outcome.verdict).toBe('error');
    expect(outcome.reason).toContain('connection reset');
    expect(run.counterexample).toBeUndefined();
    expect(outcome.violations).toEqual([]);
  });

  test('a run draws the same faker values in whichever lane it runs', async () => {
    const drawn = async (count: number) => {
      const drawnBy: string[] = [];
      const run = newRun();
      await runProperty(
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
