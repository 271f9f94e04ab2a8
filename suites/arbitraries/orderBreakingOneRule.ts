// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';
import type { OrderBodyShape } from '../../lib/check/index.js';
import {
  goodsTotal,
  type OrderCatalog,
  type OrderLine,
  type OrderSpec,
  orderBodyOf,
  type Product,
} from '../../lib/check/index.js';
import { foreignCountryCode } from './foreignCountryCode.js';
import { unknownFieldName } from './unknownFieldName.js';
import { EXAMPLE_ADDRESS, fitUnder, validOrder } from './validOrder.js';

/** The causes of 422 `validation_failed` on an order body (sections 4 and 7). */
type BrokenRule =
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

/**
 * Required fields of an order's address (contract section 2); `line2` is optional.
 * Pointers come from the dialect's order body shape.
 */
const REQUIRED_ADDRESS_FIELDS = [
  'name',
  'line1',
  'city',
  'state',
  'postal_code',
  'country',
] as const;

/**
 * A valid order (see `validOrder`) with exactly one rule of section 4 broken:
 * a required field missing, an unknown field added (at the top, in an item or
 * in the address), a SKU not on the list, a quantity under its minimum, an
 * address outside the US, a freight product, or a total over the maximum
 * order value. Rules the catalog cannot break alone (no freight product, no
 * known maximum) are left out. `external_id` is a stem, as in `validOrder`.
 * The body is made by the one order builder in the given shape; pointers are
 * into that shape.
 */
export function orderBreakingOneRule(
  catalog: OrderCatalog,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  const base = validOrder(catalog);
  const choices: fc.Arbitrary<BrokenOrder>[] = [
    missingField(base, shape),
    unknownField(base, shape),
    skuNotListed(base, catalog, shape),
    quantityBelowMinimum(base, catalog, shape),
    addressOutsideUs(base, shape),
  ];
  const freight = catalog.products.find((p) => p.ships_by_freight);
  const max = catalog.maxOrderValue;
  if (freight && (max === undefined || freight.unit_price * freight.min_quantity <= max)) {
    choices.push(freightProduct(base, catalog, freight, shape));
  }
  const priced = catalog.products.some((p) => !p.ships_by_freight && p.unit_price > 0);
  if (max !== undefined && priced) choices.push(overMaxOrderValue(base, catalog, max, shape));
  return fc.oneof(...choices);
}

/** The pointer of line `i`'s member (`sku` or `quantity`) in the shape. */
function linePointer(shape: OrderBodyShape, i: number, member: 'sku' | 'quantity'): string {
  return `${shape.items}/${i}${shape[member]}`;
}

/** The object holding the address fields, when they share one (the reference's `/shipping_address`). */
function addressParent(shape: OrderBodyShape): string | undefined {
  const parents = new Set(Object.values(shape.address).map((p) => p.slice(0, p.lastIndexOf('/'))));
  const [parent] = parents;
  return parents.size === 1 && parent ? parent : undefined;
}

function missingField(
  base: fc.Arbitrary<OrderSpec>,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.nat()).map(([order, which, itemAt]) => {
    const body = orderBodyOf(shape, order);
    const i = itemAt % order.items.length;
    const parent = addressParent(shape);
    const paths = [
      '/external_id',
      shape.items,
      ...(parent ? [parent] : []),
      linePointer(shape, i, 'sku'),
      linePointer(shape, i, 'quantity'),
      ...REQUIRED_ADDRESS_FIELDS.map((f) => shape.address[f]),
    ];
    const pointer = paths[which % paths.length] as string;
    removeAt(body, pointer);
    return { rule: 'missing_field', what: `required field ${pointer} left out`, body, pointer };
  });
}

/**
 * `name`, or `name_extra`... when the body already has a field of that name
 * there: a word the profile's dialect uses (`unit`, `address`, `basket` are
 * nouns the generator draws) is a known field, and overwriting it would send
 * a valid order where the check expects an unknown field refused.
 */
export function unknownIn(holder: Record<string, unknown>, name: string): string {
  let key = name;
  while (Object.hasOwn(holder, key)) key = `${key}_extra`;
  return key;
}

function unknownField(
  base: fc.Arbitrary<OrderSpec>,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc
    .tuple(base, unknownFieldName, fc.constantFrom('top', 'item', 'address'), fc.nat())
    .map(([order, name, where, itemAt]) => {
      const body = orderBodyOf(shape, order);
      const i = itemAt % order.items.length;
      const parent =
        where === 'item'
          ? `${shape.items}/${i}`
          : where === 'address'
            ? (addressParent(shape) ?? '')
            : '';
      const holder = valueAt(body, parent) as Record<string, unknown>;
      const key = unknownIn(holder, name);
      const pointer = `${parent}/${key}`;
      holder[key] = 'sent by a client that does not know the schema';
      return { rule: 'unknown_field', what: `unknown field ${pointer} added`, body, pointer };
    });
}

function skuNotListed(
  base: fc.Arbitrary<OrderSpec>,
  catalog: OrderCatalog,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  const listed = new Set(catalog.products.map((p) => p.sku));
  return fc
    .tuple(base, fc.nat(), fc.integer({ min: 0, max: 0x7fffffff }))
    .map(([order, itemAt, seed]) => {
      faker.seed(seed);
      let sku = `${faker.string.alpha({ length: 3, casing: 'upper' })}-${faker.string.numeric(4)}`;
      while (listed.has(sku)) sku = `${sku}-X`;
      const i = itemAt % order.items.length;
      const items = order.items.map((line, n) => (n === i ? { ...line, sku } : line));
      const pointer = linePointer(shape, i, 'sku');
      return {
        rule: 'sku_not_listed',
        what: `${pointer} = "${sku}" is not on the list`,
        body: orderBodyOf(shape, { ...order, items }),
        pointer,
      };
    });
}

function quantityBelowMinimum(
  base: fc.Arbitrary<OrderSpec>,
  catalog: OrderCatalog,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.nat()).map(([order, itemAt, under]) => {
    const i = itemAt % order.items.length;
    const line = { ...(order.items[i] as OrderLine) };
    const minimum = catalog.products.find((p) => p.sku === line.sku)?.min_quantity ?? 1;
    line.quantity = under % minimum;
    const items = order.items.map((l, n) => (n === i ? line : l));
    const pointer = linePointer(shape, i, 'quantity');
    return {
      rule: 'quantity_below_minimum',
      what: `${pointer} = ${line.quantity}, under the minimum ${minimum} of ${line.sku}`,
      body: orderBodyOf(shape, { ...order, items }),
      pointer,
    };
  });
}

function addressOutsideUs(
  base: fc.Arbitrary<OrderSpec>,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, foreignCountryCode).map(([order, country]) => {
    const body = orderBodyOf(shape, { ...order, address: { ...order.address, country } });
    const pointer = shape.address.country;
    return { rule: 'address_outside_us', what: `${pointer} = "${country}"`, body, pointer };
  });
}

function freightProduct(
  base: fc.Arbitrary<OrderSpec>,
  catalog: OrderCatalog,
  freight: Product,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat()).map(([order, at]) => {
    const freightLine = { sku: freight.sku, quantity: freight.min_quantity };
    // Only the freight rule may break: the other lines make room for the freight line's price.
    const budget =
      catalog.maxOrderValue === undefined
        ? undefined
        : catalog.maxOrderValue - goodsTotal(catalog.products, [freightLine]);
    const fitted = fitUnder(catalog, order.items, budget);
    const others =
      budget !== undefined && goodsTotal(catalog.products, fitted) > budget ? [] : fitted;
    const i = at % (others.length + 1);
    const items = [...others.slice(0, i), freightLine, ...others.slice(i)];
    const pointer = linePointer(shape, i, 'sku');
    return {
      rule: 'freight_product',
      what: `${pointer} = "${freight.sku}" ships by freight`,
      body: orderBodyOf(shape, { ...order, items }),
      pointer,
    };
  });
}

function overMaxOrderValue(
  base: fc.Arbitrary<OrderSpec>,
  catalog: OrderCatalog,
  max: number,
  shape: OrderBodyShape,
): fc.Arbitrary<BrokenOrder> {
  return fc.tuple(base, fc.nat(), fc.integer({ min: 0, max: 3 })).map(([order, itemAt, extra]) => {
    const items = order.items.map((line) => ({ ...line }));
    const priceOf = (sku: string) => goodsTotal(catalog.products, [{ sku, quantity: 1 }]);
    // A free product cannot push the total up: raise the dearest line instead.
    const picked = itemAt % items.length;
    const i = priceOf(items[picked]?.sku ?? '') > 0 ? picked : dearestLine(items, priceOf);
    const line = items[i] as OrderLine;
    if (priceOf(line.sku) === 0) {
      const dearest = [...catalog.products]
        .filter((p) => !p.ships_by_freight)
        .sort((a, b) => b.unit_price - a.unit_price)[0] as Product;
      if (!items.some((l) => l.sku === dearest.sku)) line.sku = dearest.sku;
    }
    const price = priceOf(line.sku);
    const rest = goodsTotal(catalog.products, items) - price * line.quantity;
    line.quantity = Math.max(line.quantity, Math.ceil((max + 1 - rest) / price)) + extra;
    return {
      rule: 'over_max_order_value',
      what: `goods of ${goodsTotal(catalog.products, items)} cents over the maximum ${max}`,
      body: orderBodyOf(shape, { ...order, items }),
    };
  });
}

function dearestLine(items: readonly OrderLine[], priceOf: (sku: string) => number): number {
  let best = 0;
  items.forEach((line, i) => {
    if (priceOf(line.sku) > priceOf(items[best]?.sku ?? '')) best = i;
  });
  return best;
}

/** The member a JSON Pointer names (RFC 6901); the body itself for `""`. */
function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Deletes the member a JSON Pointer names (RFC 6901). */
function removeAt(body: Record<string, unknown>, pointer: string): void {
  const cut = pointer.lastIndexOf('/');
  const last = pointer
    .slice(cut + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  delete (valueAt(body, pointer.slice(0, cut)) as Record<string, unknown>)[last];
}

/**
 * The broken orders every run of a property over `orderBreakingOneRule`
 * tries besides the generated ones, so that the limits are tried whatever the
 * seed: a quantity one under its
 * product's minimum (section 4 rule 2; the product with the largest
 * minimum), and, when the account's maximum order value is known, the
 * cheapest order over it, one unit past the largest total within it (rule 5).
 * As fast-check `examples`: `brokenOrderExamples(catalog, shape).map((b) => [b])`.
 */
export function brokenOrderExamples(catalog: OrderCatalog, shape: OrderBodyShape): BrokenOrder[] {
  const eligible = catalog.products.filter((p) => !p.ships_by_freight);
  const examples: BrokenOrder[] = [];
  const strictest = [...eligible].sort((a, b) => b.min_quantity - a.min_quantity)[0];
  if (strictest) {
    const quantity = strictest.min_quantity - 1;
    const pointer = linePointer(shape, 0, 'quantity');
    examples.push({
      rule: 'quantity_below_minimum',
      what: `${pointer} = ${quantity}, one under the minimum ${strictest.min_quantity} of ${strictest.sku}`,
      body: orderBodyOf(shape, {
        externalId: 'boundary-under-minimum',
        items: [{ sku: strictest.sku, quantity }],
        address: EXAMPLE_ADDRESS,
      }),
      pointer,
    });
  }
  const max = catalog.maxOrderValue;
  if (max === undefined) return examples;
  const over = eligible
    .filter((p) => p.unit_price > 0)
    .map((p) => {
      const quantity = Math.max(p.min_quantity, Math.floor(max / p.unit_price) + 1);
      return { sku: p.sku, quantity, beyond: quantity * p.unit_price - max };
    })
    .sort((a, b) => a.beyond - b.beyond)[0];
  if (over) {
    examples.push({
      rule: 'over_max_order_value',
      what: `goods of ${max + over.beyond} cents, one unit over the maximum ${max}`,
      body: orderBodyOf(shape, {
        externalId: 'boundary-over-maximum',
        items: [{ sku: over.sku, quantity: over.quantity }],
        address: EXAMPLE_ADDRESS,
      }),
    });
  }
  return examples;
}
