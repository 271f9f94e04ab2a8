import type { Exchange } from '../evidence/exchange.js';
import { valueAt } from '../evidence/json-pointer.js';
import { jsonValue } from '../evidence/json-text.js';
import type { EvidenceRecorder } from '../evidence/recorder.js';
import type { Scope } from '../evidence/scope.js';
import type { Judgement, Replay } from '../evidence/trace.js';
import { type Condition, pointersOf } from '../violations/condition.mjs';
import type { Violation } from '../violations/violation.js';

/**
 * A finished check's replay: its whole sequence with the set-up it drew on,
 * and its violations with what the run observed where each points, every
 * identifier named as the variable a replay learns it into. Beside them, the
 * judgements that held and that a reproduction needs to judge as the check
 * did: a race's rule over all its answers, and the statuses steps had to have.
 */
export function replayOf(
  recorder: EvidenceRecorder,
  scope: Scope,
  violations: readonly Violation[],
): Replay {
  const byId = new Map(scope.evidence.map((exchange) => [exchange.id, exchange]));
  const steps = new Set(scope.steps);
  const named = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    const text = recorder.template(JSON.stringify(value));
    return JSON.parse(text);
  };
  const judgement = (v: Violation, held: boolean): Judgement => {
    const exchange = v.exchange === undefined ? undefined : byId.get(v.exchange);
    const observed = exchange ? observe(exchange, v.pointer) : undefined;
    return {
      code: v.code,
      pointer: v.pointer,
      ...(v.exchange === undefined ? {} : { exchange: v.exchange }),
      expected: named(v.expected) ?? null,
      received: named(v.received) ?? null,
      ...(observed === undefined
        ? {}
        : { observed: 'absent' in observed ? observed : { value: named(observed.value) } }),
      ...(v.holds
        ? { holds: v.holds.map((h) => ({ pointer: h.pointer, equals: named(h.equals) ?? null })) }
        : {}),
      ...(v.must ? { must: named(v.must) as Condition } : {}),
      ...(v.exchanges ? { exchanges: [...v.exchanges] } : {}),
      ...(v.sentence ? { sentence: v.sentence } : {}),
      ...(held ? { held: true as const } : {}),
      message: v.message,
    };
  };
  // A race's rule that held in the run is judged again: which of its conditions a race breaks
  // depends on the timing of that one race.
  const across = scope.held.filter(
    (h) => h.exchanges?.length && h.exchanges.every((id) => steps.has(id)),
  );
  const judge = [
    ...violations.map((v) => judgement(v, false)),
    ...across.map((h) => judgement(h, true)),
  ];
  const expects = scope.held.flatMap((h) =>
    h.exchange !== undefined &&
    h.must &&
    !h.exchanges &&
    steps.has(h.exchange) &&
    pointersOf(h.must).every((p) => p === '/status')
      ? [{ exchange: h.exchange, must: h.must }]
      : [],
  );
  const trace = recorder.trace(scope, JSON.stringify(judge));
  const unreplayable = trace.steps.find((step) => step.truncated)
    ? 'a request body was too large to keep for replay'
    : undefined;
  return {
    trace,
    judge,
    ...(expects.length ? { expects } : {}),
    ...(unreplayable ? { unreplayable } : {}),
  };
}

/** The run's answer at a violation's pointer (`/status`, `/headers/<name>`, `/body/…`). */
function observe(
  exchange: Exchange,
  pointer: string,
): { value: unknown } | { absent: true } | undefined {
  const res = exchange.response;
  if (!res) return undefined;
  if (pointer === '/status') return { value: res.status };
  const header = /^\/headers\/(.+)$/.exec(pointer)?.[1];
  if (header) {
    const value = res.headers[header.toLowerCase()];
    return value === undefined ? { absent: true } : { value };
  }
  if (pointer !== '/body' && !pointer.startsWith('/body/')) return undefined;
  if (res.body === undefined) return { absent: true };
  const json = jsonValue(res.body);
  if (json === undefined) return undefined;
  const value = valueAt(json, pointer.slice('/body'.length));
  return value === undefined ? { absent: true } : { value };
}
