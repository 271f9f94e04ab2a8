import type { CheckContext, Key, OrderCatalog, Product } from '../../lib/check/index.js';
import { centsIn, listedProducts, moneyAt, valueAt } from '../../lib/check/index.js';

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
  const products = await listedProducts(client, ctx.dialect);
  const account = await client.get(ctx.path('account'));
  const fields = ctx.dialect.accountFields;
  const maxOrderValue = centsIn(
    moneyAt(ctx.dialect.money, 'maxOrderValue'),
    valueAt(account.json, fields.maxOrderValue),
  );
  const maxOrdersPerDay = valueAt(account.json, fields.maxOrdersPerDay);
  return {
    products,
    ...(maxOrderValue === undefined ? {} : { maxOrderValue }),
    ...(typeof maxOrdersPerDay === 'number' ? { maxOrdersPerDay } : {}),
  };
}
