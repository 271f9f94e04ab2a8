import type { Condition } from '../../lib/check/index.js';

/** Conditions of condition.mjs the model steps use: the same judgements as data. */
export const success: Condition = { at: '/status', is: { between: [200, 299] } };

export function statusIs(status: number): Condition {
  return { at: '/status', is: { equals: status } };
}

/** A problem answer with this status and one of these codes. */
export function problem(status: number, ...codes: string[]): Condition {
  return { all: [statusIs(status), { at: '/body/code', is: { oneOf: codes } }] };
}

/** The value at a pointer of the body (a dialect's `/id`) is this one. */
export function bodyAt(pointer: string, value: unknown): Condition {
  return { at: `/body${pointer}`, is: { equals: value } };
}
