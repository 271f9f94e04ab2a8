import {
  type CheckContext,
  type Key,
  type OrderCatalog,
  type Product,
  productsOf,
} from '../../lib/check/index.js';
import { cents } from '../../lib/check/order-body.js';
import { HarnessError } from '../../lib/violations/harness-error.js';

export type { OrderCatalog };

/** The catalog of products the suite gives accounts it makes (control protocol `products`). */
export function catalogOf(
  products: readonly Product[],
  limits: { max_order_value?: number; max_orders_per_day?: number } = {},
): OrderCatalog {
  return {
    products: products.map((p) => ({ ...p })),
    ...(limits.max_order_value === undefined ? {} : { maxOrderValue: limits.max_order_value }),
    ...(limits.max_orders_per_day === undefined
      ? {}
      : { maxOrdersPerDay: limits.max_orders_per_day }),
  };
}

/**
 * Reads what a key may order through the API itself: the catalog (contract
 * section 2, `GET /catalog/products`) and the limits of `GET /account`. This
 * is how a partner without the control API learns it. A catalog that cannot
 * be read is a set-up failure here; READ checks judge the catalog itself.
 */
export async function readCatalog(ctx: CheckContext, key: Key): Promise<OrderCatalog> {
  const client = ctx.api(key);
  const res = await client.get(ctx.path('catalogProducts'), { limit: '100' });
  const data = (res.json as { data?: unknown } | undefined)?.data;
  if (res.status !== 200 || !Array.isArray(data)) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not read the catalog to build orders: HTTP ${res.status} (evidence #${res.exchange})`,
    );
  }
  const account = await client.get(ctx.path('account'));
  const limits = (account.json as { limits?: Record<string, unknown> } | undefined)?.limits;
  const maxOrderValue = cents(limits?.max_order_value);
  const maxOrdersPerDay = limits?.max_orders_per_day;
  return {
    products: productsOf(data),
    ...(maxOrderValue === undefined ? {} : { maxOrderValue }),
    ...(typeof maxOrdersPerDay === 'number' ? { maxOrdersPerDay } : {}),
  };
}
