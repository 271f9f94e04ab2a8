import type { Faker } from '@faker-js/faker';
import * as fc from 'fast-check';
import type { Redactor } from '../evidence/redactor.js';
import type { Scoped } from '../evidence/scope.js';
import { CheckStopped } from '../violations/harness-error.js';
import type { CheckRun } from './check-run.js';
import { fakerLike } from './faker-like.js';

/**
 * fast-check parameters for one rule: the run's seed mixed with the rule id,
 * so each property draws its own inputs and `--seed` replays all of them.
 * A property's fixed `examples` (the limit its rule names and the limit's
 * neighbours, declared beside its arbitrary) are tried first and besides the
 * generated inputs, never instead of them: whatever the seed and
 * `--num-runs`, every example runs (fast-check counts them in `numRuns`).
 */
export function propertyParams<T>(
  seed: number,
  ruleId: string,
  numRuns: number,
  extra: fc.Parameters<T> = {},
): fc.Parameters<T> {
  const params = { seed: mixSeed(seed, ruleId), numRuns, endOnFailure: false, ...extra };
  const examples = params.examples?.length ?? 0;
  return { ...params, numRuns: (params.numRuns ?? numRuns) + examples };
}

export function mixSeed(seed: number, ruleId: string): number {
  let hash = seed | 0;
  for (const char of ruleId) hash = (Math.imul(hash ^ char.charCodeAt(0), 16777619) + 1) | 0;
  return hash;
}

/** A property's runs go out `count` at a time, each lane with state of its own. */
export interface Lanes<L> {
  /** Runs in flight at once (1: one after another, in one lane: the plain property). */
  count: number;
  /**
   * Makes one lane's state (e.g. an account and key of its own, so that runs
   * in different lanes share no clock, limits or orders). Called at most
   * `count` times, when a lane first has a run to do.
   */
  make: () => Promise<L>;
}

/**
 * Lanes of a generated property whose runs are long (each a sequence of many
 * requests, e.g. MODEL-01's command sequences: `LaneOptions.longRuns`): three
 * per check file at a time, so that against a target far away such a
 * property (hundreds of round trips) is not the run's tail while the other
 * files are long done. Its lanes share no account, clock or limit and wait
 * on the network, not the CPU. A property of short runs keeps one lane per
 * file at a time: its lanes' accounts and keys would cost more requests than
 * they save round trips. At one file at a time (the bundled reference,
 * partner mode) one lane.
 */
const LONG_RUN_LANES_PER_FILE = 3;

export function longRunLanes(filesAtATime: number): number {
  return filesAtATime <= 1 ? 1 : Math.min(32, filesAtATime * LONG_RUN_LANES_PER_FILE);
}

type Outcome =
  | { kind: 'held'; scope: Scoped<unknown> }
  | { kind: 'failed'; scope: Scoped<unknown> }
  | { kind: 'harness'; scope: Scoped<unknown>; error: unknown };

/**
 * Runs an async property, its runs spread over lanes (one lane: one after
 * another), so that a target far away is asked several runs at a time
 * instead of one round trip after another. The inputs are exactly
 * those `fc.check` would try with the same parameters, in the same order;
 * each run is one evidence scope (its violations and exchanges its own) and
 * draws its own faker from the seed and its index, so a run gives the same
 * requests whatever lane and whatever else is in flight.
 *
 * When a run fails, no further runs start; the first failing run by index
 * (the one `fc.check` would have met first) is then replayed alone through
 * fast-check's own `path`, in one lane, and shrunk there, so the seed and
 * path reported replay it. A harness error in any run ends the property and
 * is re-thrown as what it is, never shrunk as if it were a violation.
 */
export async function runProperty<T, L>(
  run: CheckRun,
  redactor: Redactor,
  arbitrary: fc.Arbitrary<T>,
  lanes: Lanes<L>,
  predicate: (value: T, lane: L) => Promise<boolean | void>,
  params: fc.Parameters<[T]>,
  faker: Faker,
): Promise<void> {
  const seed = params.seed ?? 0;
  const fakerSeed = (index: number) => mixSeed(seed, `${run.rule.id}#${index}`) >>> 0;
  const values = await inputsOf(arbitrary, params);
  // What the run really asked of this property, for the reports' cases per property.
  run.cases = Math.max(run.cases ?? 0, values.length);

  const made: { state: L; faker: Faker }[] = [];
  const makeLane = async (index: number) => {
    // The first lane draws from the check's own faker; the others from copies of its locale.
    const laneFaker = index === 0 ? faker : fakerLike(faker);
    const lane = { state: await lanes.make(), faker: laneFaker };
    made[index] = lane;
    return lane;
  };
  const attempt = async (value: T, lane: { state: L; faker: Faker }, index: number) => {
    lane.faker.seed(fakerSeed(index));
    return runOnce(run, lane.faker, () => predicate(value, lane.state));
  };

  const outcomes: Outcome[] = [];
  let next = 0;
  let stop = false;
  const work = async (laneIndex: number) => {
    let lane: { state: L; faker: Faker } | undefined;
    while (!stop && next < values.length) {
      const index = next++;
      lane ??= await makeLane(laneIndex);
      const outcome = await attempt(values[index] as T, lane, index);
      outcomes[index] = outcome;
      if (outcome.kind !== 'held') stop = true;
    }
  };
  const count = Math.max(1, Math.min(lanes.count, values.length));
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => work(i)));
  const laneError = settled.find((s) => s.status === 'rejected');
  if (laneError) throw laneError.reason;

  const firstIndex = outcomes.findIndex((o) => o !== undefined && o.kind !== 'held');
  const first = outcomes[firstIndex];
  if (!first) {
    const sample = outcomes[0]?.scope;
    if (sample) run.recorder.keep(sample);
    run.notes.push(`property held for ${values.length} generated inputs`);
    return;
  }
  if (first.kind === 'harness') {
    run.recorder.keep(first.scope);
    throw first.error;
  }

  // Replay the first failing input alone, by fast-check's path, and shrink it in one lane.
  const lane = made[0] ?? (await makeLane(0));
  let harness: unknown;
  let failing: Scoped<unknown> | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (harness !== undefined) return true;
    const outcome = await attempt(value, lane, firstIndex);
    if (outcome.kind === 'harness') {
      harness = outcome.error;
      failing ??= outcome.scope;
      return true;
    }
    if (outcome.kind === 'failed') {
      failing = outcome.scope;
      return false;
    }
    return true;
  });
  const details = await fc.check(property, { ...params, numRuns: 1, path: String(firstIndex) });
  if (harness !== undefined) {
    if (failing) run.recorder.keep(failing);
    throw harness;
  }
  if (details.failed && failing) {
    report(run, redactor, failing, {
      seed: details.seed,
      path: details.counterexamplePath ?? String(firstIndex),
      value: details.counterexample?.[0],
      numRuns: firstIndex + details.numRuns,
      numShrinks: details.numShrinks,
    });
    return;
  }
  // The target answered the replay differently: the failing run stands, unshrunk.
  report(run, redactor, first.scope, {
    seed,
    path: String(firstIndex),
    value: values[firstIndex],
    numRuns: firstIndex + 1,
    numShrinks: 0,
  });
  run.notes.push(
    'the failing input passed when replayed alone for shrinking: it is reported as first met',
  );
}

/** The inputs `fc.check` tries with these parameters, in its order (its own generation, run by run). */
async function inputsOf<T>(arbitrary: fc.Arbitrary<T>, params: fc.Parameters<[T]>): Promise<T[]> {
  const values: T[] = [];
  await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      values.push(value);
      return true;
    }),
    { ...params, endOnFailure: true },
  );
  return values;
}

/** One run, in an evidence scope of its own. */
async function runOnce(
  run: CheckRun,
  faker: Faker,
  fn: () => Promise<boolean | void>,
): Promise<Outcome> {
  const scope = await run.recorder.scope(fn, faker);
  // What a run noted (a wait for a limit, a reading accepted) is the check's, as it always was.
  run.notes.push(...scope.notes);
  const answer = 'value' in scope ? scope.value : undefined;
  const error =
    'error' in scope && !(scope.error instanceof CheckStopped) ? scope.error : undefined;
  // The predicate's own true/false answer is a judgement; a void one relies on its expects.
  if (typeof answer === 'boolean') run.judged();
  if (error !== undefined) return { kind: 'harness', scope, error };
  if (answer === false && scope.violations.length === 0) {
    scope.violations.push({
      code: 'VALUE',
      pointer: '',
      expected: 'the property holds',
      received: 'it did not',
      message: 'the property did not hold for a generated input',
    });
  }
  return scope.violations.length > 0 ? { kind: 'failed', scope } : { kind: 'held', scope };
}

/** The one "property did not hold" report: the shrunk run's evidence and violations, and what replays it. */
function report(
  run: CheckRun,
  redactor: Redactor,
  scope: Scoped<unknown>,
  found: { seed: number; path: string; value: unknown; numRuns: number; numShrinks: number },
): void {
  run.recorder.keep(scope);
  for (const violation of scope.violations) run.violate(violation);
  run.counterexample = {
    seed: found.seed,
    path: found.path,
    value: redactor.redact(fc.stringify(found.value)),
    numRuns: found.numRuns,
  };
  run.notes.push(
    `counterexample after ${found.numRuns} runs and ${found.numShrinks} shrinks (fast-check seed ${found.seed}, path "${found.path}": ${run.counterexample.value}); replay with the run's --seed and --only ${run.rule.id} (see reproduce)`,
  );
}
