import { describe, expect, it } from 'vitest';
import { goodsTotal, type OrderCatalog } from '../../lib/check/index.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { brokenOrderExamples } from '../../suites/arbitraries/orderBreakingOneRule.js';
import { validOrderExamples } from '../../suites/arbitraries/validOrder.js';

/** The order properties' fixed examples sit on the limits of section 4 rules 2 and 5. */
const product = (sku: string, unit_price: number, min_quantity: number, freight = false) => ({
  sku,
  name: sku,
  unit_price,
  min_quantity,
  ships_by_freight: freight,
});
const catalog: OrderCatalog = {
  products: [
    product('TEE', 1800, 1),
    product('STICKER', 150, 25),
    product('PALLET', 90_000, 1, true),
  ],
  maxOrderValue: 45_000,
};
const quantities = (body: Record<string, unknown>) =>
  (body.items as { sku: string; quantity: number }[]).map((l) => [l.sku, l.quantity]);

describe('valid order examples', () => {
  it('order every product at exactly its minimum, and fill the maximum order value', () => {
    const [minimum, maximum] = validOrderExamples(catalog);
    expect(minimum?.items).toEqual([
      { sku: 'TEE', quantity: 1 },
      { sku: 'STICKER', quantity: 25 },
    ]);
    expect(goodsTotal(catalog.products, maximum?.items ?? [])).toBe(45_000);
  });
});

describe('broken order examples', () => {
  it('order one under the strictest minimum, and one unit over the maximum order value', () => {
    const [under, over] = brokenOrderExamples(catalog, REFERENCE_DIALECT.orderBody);
    expect(under?.rule).toBe('quantity_below_minimum');
    expect(quantities(under?.body ?? {})).toEqual([['STICKER', 24]]);
    expect(under?.pointer).toBe('/items/0/quantity');
    expect(over?.rule).toBe('over_max_order_value');
    const [[sku, quantity]] = quantities(over?.body ?? {}) as [[string, number]];
    const price = catalog.products.find((p) => p.sku === sku)?.unit_price ?? 0;
    expect(quantity * price).toBeGreaterThan(45_000);
    expect((quantity - 1) * price).toBeLessThanOrEqual(45_000);
  });
});
