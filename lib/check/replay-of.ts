import type { Exchange } from '../evidence/exchange.js';
import { valueAt } from '../evidence/json-pointer.js';
import { jsonValue } from '../evidence/json-text.js';
import type { EvidenceRecorder } from '../evidence/recorder.js';
import type { Scope } from '../evidence/scope.js';
import type { Judgement, Replay } from '../evidence/trace.js';
import type { Violation } from '../violations/violation.js';

/**
 * A finished check's replay, replayed later without the suite: its whole sequence with the set-up
 * it drew on, and its violations with what the run observed where each
 * points, every identifier named as the variable a replay learns it into.
 */
export function replayOf(
  recorder: EvidenceRecorder,
  scope: Scope,
  violations: readonly Violation[],
): Replay {
  const byId = new Map(scope.evidence.map((exchange) => [exchange.id, exchange]));
  const named = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    const text = recorder.template(JSON.stringify(value));
    return JSON.parse(text);
  };
  const judge = violations.map((v): Judgement => {
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
      message: v.message,
    };
  });
  const trace = recorder.trace(scope, JSON.stringify(judge));
  const unreplayable = trace.steps.find((step) => step.truncated)
    ? 'a request body was too large to keep for replay'
    : undefined;
  return { trace, judge, ...(unreplayable ? { unreplayable } : {}) };
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
