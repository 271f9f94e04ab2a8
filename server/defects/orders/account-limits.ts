import type { PlaceOrderBehaviour } from '../../orders/place-order.js';
import type { HasDefect } from '../catalogue.js';

/**
 * `order-max-value-exclusive`, `order-max-value-ignored`,
 * `orders-per-day-ignored`: the correct check of orders/account-limits.ts,
 * shown a total or limits bent so that it misjudges.
 */
export function bentCheckAccountLimits(
  correct: PlaceOrderBehaviour['checkAccountLimits'],
  hasDefect: HasDefect,
): PlaceOrderBehaviour['checkAccountLimits'] {
  return (settings, total, ordersToday) => {
    const { limits } = settings;
    correct(
      {
        ...settings,
        limits: {
          ...limits,
          max_order_value: hasDefect('order-max-value-ignored')
            ? Number.POSITIVE_INFINITY
            : limits.max_order_value,
          max_orders_per_day: hasDefect('orders-per-day-ignored')
            ? Number.POSITIVE_INFINITY
            : limits.max_orders_per_day,
        },
      },
      // Whole cents: `total + 1 > max` is `total >= max`, a total at the limit refused.
      hasDefect('order-max-value-exclusive') ? total + 1 : total,
      ordersToday,
    );
  };
}
