import type { CheckContext, Key, Product } from '../../lib/check/index.js';
import { HarnessError } from '../../lib/violations/harness-error.js';

/** A product as the generators use it: money in integer cents. */
export interface CatalogProduct {
  sku: string;
  name: string;
  unitPrice: number;
  minQuantity: number;
  shipsByFreight: boolean;
}

/** What an order generator must know about an account: its products and order limits. */
export interface OrderCatalog {
  products: CatalogProduct[];
  /** Cents; unknown when the account could not be read. */
  maxOrderValue?: number;
  maxOrdersPerDay?: number;
}

/** The catalog of products the suite gives accounts it makes (control protocol `products`). */
export function catalogOf(
  products: readonly Product[],
  limits: { max_order_value?: number; max_orders_per_day?: number } = {},
): OrderCatalog {
  return {
    products: products.map((p) => ({
      sku: p.sku,
      name: p.name,
      unitPrice: p.unit_price,
      minQuantity: p.min_quantity,
      shipsByFreight: p.ships_by_freight,
    })),
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
  const products = data.flatMap((raw): CatalogProduct[] => {
    const p = raw as Record<string, unknown>;
    const unitPrice = cents(p.unit_price);
    if (typeof p.sku !== 'string' || unitPrice === undefined) return [];
    return [
      {
        sku: p.sku,
        name: typeof p.name === 'string' ? p.name : p.sku,
        unitPrice,
        minQuantity: typeof p.min_quantity === 'number' ? p.min_quantity : 1,
        shipsByFreight: p.ships_by_freight === true,
      },
    ];
  });
  const account = await client.get(ctx.path('account'));
  const limits = (account.json as { limits?: Record<string, unknown> } | undefined)?.limits;
  const maxOrderValue = cents(limits?.max_order_value);
  const maxOrdersPerDay = limits?.max_orders_per_day;
  return {
    products,
    ...(maxOrderValue === undefined ? {} : { maxOrderValue }),
    ...(typeof maxOrdersPerDay === 'number' ? { maxOrdersPerDay } : {}),
  };
}

/** Contract section 2: money is `{amount, currency}`; a bare integer is read as cents too. */
function cents(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const amount = (value as { amount?: unknown } | undefined)?.amount;
  return typeof amount === 'number' && Number.isInteger(amount) ? amount : undefined;
}
