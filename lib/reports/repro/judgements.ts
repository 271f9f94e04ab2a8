import type { Judgement, TraceStep, TraceVar } from '../../evidence/trace.js';
import { type Condition, pointersOf } from '../../violations/condition.mjs';
import { requestShape } from './loops.js';
import type { PlanJudgement } from './plan-types.js';

/**
 * What a reproduction judges: each violation of the result (and each race's
 * rule that held in the run) with the rule's condition as data, the steps
 * whose answers it reads, and what tells a fix from a different answer.
 *
 * A header or field is judged only on an answer with the run's status (or a
 * status the check accepted there): another status is a different answer,
 * never judged as if it were the run's. A judgement on one of like requests
 * in flight together reads all of them, since which of them gets the bad
 * answer is the timing's.
 */
export function planJudgements(
  judge: readonly Judgement[],
  steps: ReadonlyMap<number, TraceStep>,
  vars: Record<string, TraceVar>,
  groups: readonly (readonly TraceStep[])[],
  expects: readonly { exchange: number; must: Condition }[],
): PlanJudgement[] {
  const violated = new Set(
    judge.flatMap((j) => (j.held || j.exchange === undefined ? [] : [j.exchange])),
  );
  return judge.map((j): PlanJudgement => {
    const base = {
      message: j.message,
      code: j.code,
      pointer: j.pointer,
      expected: j.expected,
      received: j.received,
      ...(j.held ? { held: true as const } : {}),
    };
    if (j.exchanges) {
      const ids = j.exchanges.filter((id) => steps.has(id));
      return {
        ...base,
        steps: ids,
        across: true,
        ...(j.must ? { must: j.must } : {}),
        run: runOf(steps.get(ids[0] ?? -1)),
      };
    }
    const step = j.exchange === undefined ? undefined : steps.get(j.exchange);
    if (!step) {
      // Judged across answers by values learned from them (two answers that must name one order):
      // both learned now, or the run's constant (an empty list, a null, a description of a shape)
      // would be judged forever.
      const learnedIn = (value: unknown, kinds: readonly string[]) =>
        (JSON.stringify(value ?? null).match(/\{\{(v\d+)\}\}/g) ?? []).some((m) =>
          kinds.includes(vars[m.slice(2, -2)]?.kind ?? ''),
        );
      const fresh =
        learnedIn(j.received, ['answer']) && learnedIn(j.expected, ['answer', 'client']);
      return {
        ...base,
        steps: [],
        ...(j.code === 'VALUE' && fresh && j.exchange === undefined
          ? { values: { expected: j.expected, received: j.received } }
          : {}),
        run: {},
      };
    }
    const must = j.must ?? derived(j);
    // Without the condition as data, only a place of the step's own answer can be judged by the
    // run's value: a pointer elsewhere (the control API's listing of charges, the account's keys)
    // names nothing a reproduction gets back, and is no judgement of its own.
    if (!must && !ANSWER_PLACE.test(j.pointer)) return { ...base, steps: [], run: {} };
    const group = groups.find((members) => members.some((m) => m.id === step.id));
    const shape = requestShape(vars);
    // Racers of one race to the same endpoint are alike whatever their bodies: which of them the
    // target takes is the race's, not the request's.
    const alike = (m: TraceStep) =>
      step.race !== undefined && m.race === step.race
        ? m.channel === step.channel && m.method === step.method && m.url === step.url
        : shape(m) === shape(step);
    const like = group ? group.filter(alike) : [step];
    const expect = expects.find((e) => e.exchange === step.id)?.must;
    // A status judged by the run's old value (no condition as data) needs no guard either.
    const readsStatus =
      must !== undefined ? pointersOf(must).includes('/status') : j.pointer === '/status';
    // The statuses the check required at this step, held or broken: a field is judged on those too.
    const required = [
      ...(expect ? [expect] : []),
      ...judge.flatMap((other) =>
        other.exchange === step.id && other.must && !other.exchanges ? [other.must] : [],
      ),
    ];
    // Racers the check judged as one (a race's rule over all of them): the statuses it found
    // nothing wrong with are answers it accepts from any of them. Like requests merely in flight
    // together (a burst) were not each judged: another status there is a different answer.
    const raced = judge.some((other) => like.every((m) => other.exchanges?.includes(m.id)));
    const accepts = raced
      ? [
          ...new Set(
            like.flatMap((m) => (m.status !== undefined && !violated.has(m.id) ? [m.status] : [])),
          ),
        ]
      : [];
    return {
      ...base,
      steps: like.map((m) => m.id),
      ...(must ? { must } : j.observed ? { old: j.observed } : {}),
      ...(readsStatus ? {} : { guard: guardOf(step, required) }),
      ...(like.length > 1 && accepts.length ? { accepts } : {}),
      ...(expect ? { expects: expect } : {}),
      run: runOf(step),
    };
  });
}

/** A place of an answer: its status, a header, its body. */
const ANSWER_PLACE = /^\/(status$|headers\/|body($|\/))/;

/** The condition of a violation made before checks gave theirs as data: a model's `holds`, a status. */
function derived(j: Judgement): Condition | undefined {
  if (j.holds) return { all: j.holds.map((h) => ({ at: h.pointer, is: { equals: h.equals } })) };
  if (j.pointer !== '/status') return undefined;
  const expected = [j.expected].flat();
  if (expected.length > 0 && expected.every((x) => typeof x === 'number'))
    return { at: '/status', is: { oneOf: expected } };
  if (j.expected === '2xx') return { at: '/status', is: { between: [200, 299] } };
  return undefined;
}

/**
 * The statuses under which a header or field is judged: the run's, and those
 * the check required at the step (a status judgement there, held or broken).
 */
function guardOf(step: TraceStep, required: readonly Condition[]): number[] {
  const statuses = new Set<number>(step.status === undefined ? [] : [step.status]);
  for (const condition of required)
    for (const status of statusesOf(condition)) statuses.add(status);
  return [...statuses];
}

/** The statuses a condition requires, when it names them (alone, or as one of all it requires). */
function statusesOf(condition: Condition): number[] {
  if ('all' in condition) return condition.all.flatMap(statusesOf);
  if (!('at' in condition) || condition.at !== '/status') return [];
  const test = condition.is;
  const listed = 'oneOf' in test ? test.oneOf : 'equals' in test ? [test.equals] : [];
  return listed.filter((s): s is number => typeof s === 'number');
}

function runOf(step: TraceStep | undefined): PlanJudgement['run'] {
  if (!step) return {};
  return {
    ...(step.status === undefined ? {} : { status: step.status }),
    ...(step.code === undefined ? {} : { code: step.code }),
  };
}
