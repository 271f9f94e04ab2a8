import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';

/**
 * §4 POST /orders: the `Idempotency-Key` header is required, up to 255
 * characters; missing gives 400 `idempotency_key_required`. Contract §2: an
 * over-long key gets the same code, with `detail` naming the length.
 */
export function idempotencyKeyOf(request: FastifyRequest): string {
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
