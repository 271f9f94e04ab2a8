import type { Order } from '../domain/order.js';
import type { orderView } from '../views/order.js';

type OrderView = ReturnType<typeof orderView>;

const DAY_MS = 24 * 3_600_000;

/** `order-read-without-external-id`: GET /orders/{id} as a view that forgot a field shows it. */
export function withoutExternalId(view: OrderView): Omit<OrderView, 'external_id'> {
  const { external_id: _left, ...rest } = view;
  return rest;
}

/**
 * `external-id-lookup-forgets-after-day`: the order, if placed within the last
 * 24 hours of the account clock, as a lookup index that expires entries sees it.
 */
export function placedInLastDay(order: Order, now: number): Order | undefined {
  return now - order.createdAt <= DAY_MS ? order : undefined;
}
