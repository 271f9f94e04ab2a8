import { type Money, money } from '../domain/money.js';
import type { Order, PricedItem } from '../domain/order.js';
import { rfc3339 } from '../domain/time.js';

export interface ItemView {
  sku: string;
  quantity: number;
  unit_price: Money;
  amount: Money;
}

export function itemView(item: PricedItem): ItemView {
  return {
    sku: item.sku,
    quantity: item.quantity,
    unit_price: money(item.unit_price),
    amount: money(item.amount),
  };
}

/**
 * Contract §2 order: `{id, external_id, status, items, total, shipping_address,
 * created_at, cancellable_until, livemode}`.
 */
export function orderView(order: Order) {
  return {
    id: order.id,
    object: 'order' as const,
    external_id: order.externalId,
    status: order.status,
    items: order.items.map(itemView),
    total: money(order.total),
    shipping_address: order.shippingAddress,
    created_at: rfc3339(order.createdAt),
    cancellable_until: rfc3339(order.cancellableUntil),
    livemode: order.mode === 'live',
  };
}
