// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';
import type { OrderCatalog, Product } from '../../lib/check/index.js';
import { goodsTotal, type OrderBody } from '../../lib/check/index.js';
import { REFERENCE_ORDER_BODY } from '../../lib/target/dialect.js';
import { foreignCountryCode } from './foreignCountryCode.js';
import { unknownFieldName } from './unknownFieldName.js';
import { fitUnder, validOrder } from './validOrder.js';

/** The causes of 422 `validation_failed` on an order body (sections 4 and 7). */
export type BrokenRule =
  | 'missing_field'
  | 'unknown_field'
  | 'sku_not_listed'
  | 'quantity_below_minimum'
  | 'address_outside_us'
  | 'freight_product'
  | 'over_max_order_value';

export interface BrokenOrder {
  rule: BrokenRule;
  /** For people reading a counterexample: what was broken and how. */
  what: string;
  body: Record<string, unknown>;
  /**
   * The JSON Pointer (RFC 6901) into the body of the field at fault, as the
   * reference dialect's `errors[].pointer` gives it; undefined when the rule
   * concerns no single field (the order's total).
   */
  pointer?: string;
}

/** Required fields of the reference order body (contract section 2); `line2` is optional. */
const REQUIRED_ADDRESS_FIELDS = ['name', 'line1', 'city', 'state', 'postal_code', 'country'];

/**
 * A valid order (see `validOrder`) with exactly one rule of section 4 broken:
 * a required field missing, an unknown field added (at the top, in an item or
 * in the address), a SKU not on the list, a quantity under its minimum, an
 * address outside the US, a freight product, or a total over the maximum
 * order value. Rules the catalog cannot break alone (no freight product, no
 * known maximum) are left out. `external_id` is a stem, as in `validOrder`.
 */
export function orderBreakingOneRule(catalog: OrderCatalog): fc.Arbitrary<BrokenOrder> {
  // Its breakages edit the reference dialect's field names (and its pointers are into them).
  const base = validOrder(catalog, REFERENCE_ORDER_BODY);
  const choices: fc.Arbitrary<BrokenOrder>[] = [
    missingField(base),
    unknownField(base),
    skuNotListed(base, catalog),
    quantityBelowMinimum(base, catalog),
    addressOutsideUs(base),
  ];
  const freight = catalog.products.find((p) => p.ships_by_freight);
  const max = catalog.maxOrderValue;
  if (freight && (max === undefined || freight.unit_price * freight.min_quantity <= max)) {
    choices.push(freightProduct(base, catalog, freight));
  }
  const priced = catalog.products.some((p) => !p.ships_by_freight && p.unit_price > 0);
  if (max !== undefined && priced) choices.push(overMaxOrderValue(base, catalog, max));
  return fc.oneof(...choices);
}

function clone(body: OrderBody): Record<string, unknown> & OrderBody {
  return structuredClone(body);
}

function missingField(base: fc.Arbitrary<OrderBody>): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.nat()).map(([order, which, itemAt]) => {
    const body = clone(order);
    const i = itemAt % body.items.length;
    const paths = [
      '/external_id',
      '/items',
      '/shipping_address',
      `/items/${i}/sku`,
      `/items/${i}/quantity`,
      ...REQUIRED_ADDRESS_FIELDS.map((f) => `/shipping_address/${f}`),
    ];
    const pointer = paths[which % paths.length] as string;
    removeAt(body, pointer);
    return { rule: 'missing_field', what: `required field ${pointer} left out`, body, pointer };
  });
}

function unknownField(base: fc.Arbitrary<OrderBody>): fc.Arbitrary<BrokenOrder> {
  return fc
    .tuple(base, unknownFieldName, fc.constantFrom('top', 'item', 'address'), fc.nat())
    .map(([order, name, where, itemAt]) => {
      const body = clone(order);
      const i = itemAt % body.items.length;
      const parent = where === 'top' ? '' : where === 'item' ? `/items/${i}` : '/shipping_address';
      const pointer = `${parent}/${name}`;
      const target = (
        where === 'top' ? body : where === 'item' ? body.items[i] : body.shipping_address
      ) as Record<string, unknown>;
      target[name] = 'sent by a client that does not know the schema';
      return { rule: 'unknown_field', what: `unknown field ${pointer} added`, body, pointer };
    });
}

function skuNotListed(
  base: fc.Arbitrary<OrderBody>,
  catalog: OrderCatalog,
): fc.Arbitrary<BrokenOrder> {
  const listed = new Set(catalog.products.map((p) => p.sku));
  return fc
    .tuple(base, fc.nat(), fc.integer({ min: 0, max: 0x7fffffff }))
    .map(([order, itemAt, seed]) => {
      faker.seed(seed);
      let sku = `${faker.string.alpha({ length: 3, casing: 'upper' })}-${faker.string.numeric(4)}`;
      while (listed.has(sku)) sku = `${sku}-X`;
      const body = clone(order);
      const i = itemAt % body.items.length;
      (body.items[i] as { sku: string }).sku = sku;
      const pointer = `/items/${i}/sku`;
      return {
        rule: 'sku_not_listed',
        what: `${pointer} = "${sku}" is not on the list`,
        body,
        pointer,
      };
    });
}

function quantityBelowMinimum(
  base: fc.Arbitrary<OrderBody>,
  catalog: OrderCatalog,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.nat()).map(([order, itemAt, under]) => {
    const body = clone(order);
    const i = itemAt % body.items.length;
    const line = body.items[i] as { sku: string; quantity: number };
    const minimum = catalog.products.find((p) => p.sku === line.sku)?.min_quantity ?? 1;
    line.quantity = under % minimum;
    const pointer = `/items/${i}/quantity`;
    return {
      rule: 'quantity_below_minimum',
      what: `${pointer} = ${line.quantity}, under the minimum ${minimum} of ${line.sku}`,
      body,
      pointer,
    };
  });
}

function addressOutsideUs(base: fc.Arbitrary<OrderBody>): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, foreignCountryCode).map(([order, country]) => {
    const body = clone(order);
    body.shipping_address.country = country;
    const pointer = '/shipping_address/country';
    return { rule: 'address_outside_us', what: `${pointer} = "${country}"`, body, pointer };
  });
}

function freightProduct(
  base: fc.Arbitrary<OrderBody>,
  catalog: OrderCatalog,
  freight: Product,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat()).map(([order, at]) => {
    const body = clone(order);
    const freightLine = { sku: freight.sku, quantity: freight.min_quantity };
    // Only the freight rule may break: the other lines make room for the freight line's price.
    const budget =
      catalog.maxOrderValue === undefined
        ? undefined
        : catalog.maxOrderValue - goodsTotal(catalog.products, [freightLine]);
    const fitted = fitUnder(catalog, body.items, budget);
    const others =
      budget !== undefined && goodsTotal(catalog.products, fitted) > budget ? [] : fitted;
    const i = at % (others.length + 1);
    body.items = [...others.slice(0, i), freightLine, ...others.slice(i)];
    const pointer = `/items/${i}/sku`;
    return {
      rule: 'freight_product',
      what: `${pointer} = "${freight.sku}" ships by freight`,
      body,
      pointer,
    };
  });
}

function overMaxOrderValue(
  base: fc.Arbitrary<OrderBody>,
  catalog: OrderCatalog,
  max: number,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.integer({ min: 0, max: 3 })).map(([order, itemAt, extra]) => {
    const body = clone(order);
    const priceOf = (sku: string) => goodsTotal(catalog.products, [{ sku, quantity: 1 }]);
    // A free product cannot push the total up: raise the dearest line instead.
    const picked = itemAt % body.items.length;
    const i = priceOf(body.items[picked]?.sku ?? '') > 0 ? picked : dearestLine(body, priceOf);
    const line = body.items[i] as { sku: string; quantity: number };
    if (priceOf(line.sku) === 0) {
      const dearest = [...catalog.products]
        .filter((p) => !p.ships_by_freight)
        .sort((a, b) => b.unit_price - a.unit_price)[0] as Product;
      if (!body.items.some((l) => l.sku === dearest.sku)) line.sku = dearest.sku;
    }
    const price = priceOf(line.sku);
    const rest = goodsTotal(catalog.products, body.items) - price * line.quantity;
    line.quantity = Math.max(line.quantity, Math.ceil((max + 1 - rest) / price)) + extra;
    return {
      rule: 'over_max_order_value',
      what: `total ${goodsTotal(catalog.products, body.items)} cents over the maximum ${max}`,
      body,
    };
  });
}

function dearestLine(body: OrderBody, priceOf: (sku: string) => number): number {
  let best = 0;
  body.items.forEach((line, i) => {
    if (priceOf(line.sku) > priceOf(body.items[best]?.sku ?? '')) best = i;
  });
  return best;
}

/** Deletes the member a JSON Pointer names (RFC 6901; no escapes needed for these names). */
function removeAt(body: Record<string, unknown>, pointer: string): void {
  const parts = pointer.split('/').slice(1);
  const last = parts.pop() as string;
  let node: unknown = body;
  for (const part of parts) node = (node as Record<string, unknown>)[part];
  delete (node as Record<string, unknown>)[last];
}
