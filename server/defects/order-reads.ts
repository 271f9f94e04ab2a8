import type { Order } from '../domain/order.js';

const DAY_MS = 24 * 3_600_000;

/**
 * `external-id-lookup-forgets-after-day`: the order, if placed within the last
 * 24 hours of the account clock, as a lookup index that expires entries sees it.
 */
export function placedInLastDay(order: Order, now: number): Order | undefined {
  return now - order.createdAt <= DAY_MS ? order : undefined;
}
