import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';

/**
 * §4 POST /orders: the `Idempotency-Key` header is required, up to 255
 * characters; missing gives 400 `idempotency_key_required`. Contract §2: an
 * over-long key gets the same code, with `detail` naming the length.
 */
export function idempotencyKeyOf(request: FastifyRequest): string {
  // Node joins a repeated header into one value: count the raw headers, so that two keys are
  // refused instead of silently becoming a third ("a, b") that a later request could replay.
  if (headerCount(request.raw.rawHeaders, 'idempotency-key') > 1) {
    throw new ApiProblem(
      'idempotency_key_required',
      'The Idempotency-Key header is sent more than once; send exactly one.',
    );
  }
  const value = request.headers['idempotency-key'];
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key === undefined || key.trim() === '') {
    throw new ApiProblem(
      'idempotency_key_required',
      'POST /orders needs an Idempotency-Key header (a unique value of up to 255 characters per new order).',
    );
  }
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiProblem(
      'idempotency_key_required',
      `The Idempotency-Key is ${key.length} characters long; at most ${IDEMPOTENCY_KEY_MAX} are allowed.`,
    );
  }
  return key;
}

/** How many times a header is in Node's raw `[name, value, name, value, …]` list. */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === name) count += 1;
  }
  return count;
}
