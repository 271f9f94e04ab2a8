import fc from 'fast-check';
import {
  goodsTotal,
  type OrderCatalog,
  type OrderLine,
  type OrderSpec,
  type Product,
  type UsAddress,
} from '../../lib/check/index.js';
import { externalId } from './externalId.js';
import { usShippingAddress } from './usShippingAddress.js';

/**
 * An order valid by every rule of section 4 for this catalog: products on
 * the list that do not ship by freight, each at or above its minimum, to a
 * US address, within the maximum order value (of the goods: what the
 * target charges is read from it). Any number of lines (up to 8, distinct
 * products), small and large quantities, realistic addresses. An order, not
 * a body: the check makes its body with the one order builder
 * (`orderBodyOf`), in the run's dialect.
 *
 * `external_id` is a realistic stem: external ids are unique per account for
 * ever, so the check makes it unique (`uniqueExternalId`) before sending.
 */
export function validOrder(catalog: OrderCatalog): fc.Arbitrary<OrderSpec> {
  const eligible = catalog.products.filter((p) => !p.ships_by_freight);
  if (eligible.length === 0)
    throw new Error('validOrder: the catalog has no product without freight');
  const line = fc.record({
    product: fc.integer({ min: 0, max: eligible.length - 1 }),
    extra: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 250 })),
  });
  return fc
    .record({
      externalId,
      lines: fc.uniqueArray(line, {
        selector: (l) => l.product,
        minLength: 1,
        maxLength: Math.min(eligible.length, 8),
      }),
      address: usShippingAddress,
    })
    .map(({ externalId: stem, lines, address }) => {
      const items = lines.map(({ product, extra }) => {
        const p = eligible[product] as Product;
        return { sku: p.sku, quantity: p.min_quantity + extra };
      });
      return { externalId: stem, items: fitUnder(catalog, items, catalog.maxOrderValue), address };
    });
}

/**
 * Brings lines under a budget (cents): first every quantity down to its
 * minimum, then the dearest lines dropped, keeping at least one. Exported
 * for generators that must stay under the maximum order value while breaking
 * another rule.
 */
export function fitUnder(
  catalog: OrderCatalog,
  items: readonly OrderLine[],
  budget: number | undefined,
): OrderLine[] {
  if (budget === undefined || goodsTotal(catalog.products, items) <= budget) return [...items];
  const minimum = (line: OrderLine) =>
    catalog.products.find((p) => p.sku === line.sku)?.min_quantity ?? 1;
  const lines = items.map((line) => ({ ...line }));
  for (const line of lines) {
    const floor = minimum(line);
    const price = goodsTotal(catalog.products, [{ sku: line.sku, quantity: 1 }]);
    while (line.quantity > floor && goodsTotal(catalog.products, lines) > budget) {
      const over = goodsTotal(catalog.products, lines) - budget;
      line.quantity = Math.max(floor, line.quantity - Math.max(1, Math.ceil(over / price)));
    }
  }
  while (lines.length > 1 && goodsTotal(catalog.products, lines) > budget) {
    const dearest = lines.reduce((a, b) =>
      goodsTotal(catalog.products, [a]) >= goodsTotal(catalog.products, [b]) ? a : b,
    );
    lines.splice(lines.indexOf(dearest), 1);
  }
  return lines;
}

/** A fixed US address (section 4 rule 3), so that boundary examples are data. */
export const EXAMPLE_ADDRESS: UsAddress = {
  name: 'Dana Example',
  line1: '100 Main Street',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
};

/**
 * The orders every run of a property over `validOrder(catalog)` tries
 * besides the generated ones, so that the limits are tried whatever the
 * seed: each product at exactly its minimum
 * quantity (section 4 rule 2), and, when the account's maximum order value
 * is known, one product to the largest total within it, the maximum itself
 * where a price divides it (rule 5). As fast-check `examples`:
 * `validOrderExamples(catalog).map((order) => [order])`.
 */
export function validOrderExamples(catalog: OrderCatalog): OrderSpec[] {
  const eligible = catalog.products.filter((p) => !p.ships_by_freight);
  const atMinimum = eligible.slice(0, 8).map((p) => ({ sku: p.sku, quantity: p.min_quantity }));
  const examples: OrderSpec[] = [
    {
      externalId: 'boundary-minimum',
      items: fitUnder(catalog, atMinimum, catalog.maxOrderValue),
      address: EXAMPLE_ADDRESS,
    },
  ];
  const max = catalog.maxOrderValue;
  if (max === undefined) return examples;
  const fullest = eligible
    .filter((p) => p.unit_price > 0 && p.unit_price * p.min_quantity <= max)
    .map((p) => ({
      sku: p.sku,
      quantity: Math.floor(max / p.unit_price),
      left: max % p.unit_price,
    }))
    .sort((a, b) => a.left - b.left)[0];
  if (fullest) {
    examples.push({
      externalId: 'boundary-maximum',
      items: [{ sku: fullest.sku, quantity: fullest.quantity }],
      address: EXAMPLE_ADDRESS,
    });
  }
  return examples;
}
