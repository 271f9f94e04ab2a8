import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX } from '../../config/api.js';
import { randomBase62 } from '../../domain/ids.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { OrderCreateBehaviour } from '../../routes/orders-create.js';
import type { HasDefect } from '../catalogue.js';

/**
 * `idem-missing-key-accepted`, `idem-key-max-200`, `idem-key-max-254`, `idem-256-key-accepted`:
 * the correct header check of orders/idempotency-key.ts with its length limit
 * or its required key bent.
 */
export function bentIdempotencyKeyOf(
  correct: OrderCreateBehaviour['idempotencyKeyOf'],
  hasDefect: HasDefect,
): OrderCreateBehaviour['idempotencyKeyOf'] {
  return (request: FastifyRequest) => {
    const value = request.headers['idempotency-key'];
    const missing = value === undefined || (typeof value === 'string' && value.trim() === '');
    if (missing && hasDefect('idem-missing-key-accepted')) return randomBase62(32);
    if (
      typeof value === 'string' &&
      value.length === IDEMPOTENCY_KEY_MAX + 1 &&
      hasDefect('idem-256-key-accepted')
    ) {
      return value;
    }
    const key = correct(request);
    // --- `idem-key-max-254` (issue 26): the limit counted one short, so a key of exactly 255 is refused.
    if (key.length === IDEMPOTENCY_KEY_MAX && hasDefect('idem-key-max-254')) {
      throw new ApiProblem(
        'idempotency_key_required',
        `The Idempotency-Key is ${key.length} characters long; at most ${IDEMPOTENCY_KEY_MAX - 1} are allowed.`,
      );
    }
    // --- end `idem-key-max-254`
    if (key.length > 200 && hasDefect('idem-key-max-200')) {
      throw new ApiProblem(
        'idempotency_key_required',
        `The Idempotency-Key is ${key.length} characters long; at most 200 are allowed.`,
      );
    }
    return key;
  };
}
