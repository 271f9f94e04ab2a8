import { randomUUID } from 'node:crypto';

/** Section 4, idempotency rule 1: each new order is sent with a unique Idempotency-Key. */
export function newIdempotencyKey(): string {
  return `ct-${randomUUID()}`;
}
