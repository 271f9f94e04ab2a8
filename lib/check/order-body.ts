import { isDeepStrictEqual } from 'node:util';
import type { Faker } from '@faker-js/faker';
import type { Product } from '../control/types.js';
import { put, unescapeToken, valueAt } from '../evidence/json-pointer.js';
import type { Dialect, OrderBodyShape } from '../target/dialect.js';
import { moneyAt } from '../target/dialect.js';
import { centsIn } from './answers.js';
import { uniqueExternalId } from './external-id.js';
import { type UsAddress, usAddress } from './us-address.js';

/** One line of an order: a product and how many. */
export interface OrderLine {
  sku: string;
  quantity: number;
}

/** An order as the document describes it (section 4), before any dialect gives it a body. */
export interface OrderSpec {
  /** Fixed by the document: `external_id` at the top of the body. */
  externalId: string;
  items: readonly OrderLine[];
  address: UsAddress;
}

/**
 * An order body as sent. Typed in the reference dialect (target contract,
 * section 2) because checks still edit its fields by name; under another
 * dialect only `external_id` (fixed by the document) is where the type says.
 */
export interface OrderBody {
  external_id: string;
  items: OrderLine[];
  shipping_address: UsAddress;
  [field: string]: unknown;
}

/** What an order generator must know about an account: its products and order limits. */
export interface OrderCatalog {
  products: Product[];
  /** Cents; unknown when the account could not be read. */
  maxOrderValue?: number;
  maxOrdersPerDay?: number;
}

/** What a check may choose of an order; the rest is a valid default. */
export interface OrderChoices {
  /** Default: a new unique external id. */
  externalId?: string;
  /** Default: the cheapest valid line of the catalog (`cheapestLine`). */
  items?: readonly OrderLine[];
}

/**
 * A valid order (section 4, rules 1 to 5): by default the cheapest product
 * that does not ship by freight at its minimum quantity, to a US address
 * from the run's faker, with an external_id no earlier order holds.
 */
export function orderSpec(
  ctx: { readonly faker: Faker },
  catalog: { readonly products: readonly Product[] },
  choices: OrderChoices = {},
): OrderSpec {
  return {
    externalId: choices.externalId ?? uniqueExternalId(`ct-${ctx.faker.string.numeric(6)}`),
    items: choices.items ?? [cheapestLine(catalog.products)],
    address: usAddress(ctx.faker),
  };
}

/**
 * The body of a valid order (`orderSpec`) in the dialect of the run, made by
 * the one order builder (`orderBodyOf`). `ctx.orderBody` is this for an
 * account's products.
 */
export function orderBody(
  ctx: { readonly faker: Faker; readonly dialect: Pick<Dialect, 'orderBody'> },
  catalog: { readonly products: readonly Product[] },
  choices: OrderChoices = {},
): OrderBody {
  return orderBodyOf(ctx.dialect.orderBody, orderSpec(ctx, catalog, choices));
}

/**
 * Contract section 2: `POST /quotes` takes lines and a shipping address like
 * an order, without `external_id`; the dialect's `quoteBody` says where each
 * goes. Made from an order's spec, so the run's faker draws stay an order's.
 */
export function quoteBody(
  ctx: { readonly faker: Faker; readonly dialect: Pick<Dialect, 'quoteBody'> },
  catalog: { readonly products: readonly Product[] },
  items: readonly OrderLine[] = [cheapestLine(catalog.products)],
): Record<string, unknown> {
  return quoteBodyFor(ctx.dialect.quoteBody, orderSpec(ctx, catalog, { items }));
}

/**
 * The one order builder: every check and every arbitrary makes its order
 * bodies here, and only the dialect says where each part goes, so that a
 * profile describing another order body changes no check.
 */
export function orderBodyOf(shape: OrderBodyShape, spec: OrderSpec): OrderBody {
  return bodyOf(shape, spec.items, spec.address, { external_id: spec.externalId }) as OrderBody;
}

/** Lines and address put where `shape` says, over `start`. */
function bodyOf(
  shape: OrderBodyShape,
  lines: readonly OrderLine[],
  address: UsAddress,
  start: Record<string, unknown>,
): Record<string, unknown> {
  const body = start;
  const items = lines.map((line) => {
    const entry: Record<string, unknown> = {};
    put(entry, shape.sku, line.sku);
    put(entry, shape.quantity, line.quantity);
    return entry;
  });
  put(body, shape.items, items);
  for (const [field, value] of Object.entries(address) as [keyof UsAddress, unknown][]) {
    if (value !== undefined) put(body, shape.address[field], value);
  }
  return body;
}

/**
 * The body of a quote for the lines and address of an order body (contract
 * section 2: `POST /quotes` takes them like an order, without `external_id`),
 * in the dialect's quote body. What the order body carries besides its lines
 * and address (a field a check added at the top) goes along unchanged.
 */
export function quoteBodyOf(
  dialect: Pick<Dialect, 'orderBody' | 'quoteBody'>,
  order: Record<string, unknown>,
): Record<string, unknown> {
  const { external_id: _, ...rest } = order;
  if (isDeepStrictEqual(dialect.orderBody, dialect.quoteBody)) return rest;
  const shape = dialect.orderBody;
  const owned = new Set(
    [shape.items, ...Object.values(shape.address)].map((p) => unescapeToken(p.split('/')[1] ?? '')),
  );
  const others = Object.fromEntries(Object.entries(rest).filter(([name]) => !owned.has(name)));
  const lines = (valueAt(order, shape.items) as unknown[] | undefined) ?? [];
  // Lines as sent, even odd ones: each line's SKU and quantity moved to the quote's places.
  const quoteLines = Array.isArray(lines)
    ? lines.map((line) => {
        const entry: Record<string, unknown> = {};
        const sku = valueAt(line, shape.sku);
        const quantity = valueAt(line, shape.quantity);
        if (sku !== undefined) put(entry, dialect.quoteBody.sku, sku);
        if (quantity !== undefined) put(entry, dialect.quoteBody.quantity, quantity);
        return entry;
      })
    : lines;
  const body: Record<string, unknown> = { ...structuredClone(others) };
  put(body, dialect.quoteBody.items, quoteLines);
  for (const [field, value] of Object.entries(addressOf(shape, order)) as [
    keyof UsAddress,
    unknown,
  ][]) {
    if (value !== undefined) put(body, dialect.quoteBody.address[field], value);
  }
  return body;
}

/** A quote body for these lines and address, made where the dialect's quote body puts them. */
function quoteBodyFor(
  shape: OrderBodyShape,
  spec: Pick<OrderSpec, 'items' | 'address'>,
): Record<string, unknown> {
  return bodyOf(shape, spec.items, spec.address, {});
}

/** The shipping address an order body carries, read where the dialect puts it. */
export function addressOf(shape: OrderBodyShape, body: Record<string, unknown>): UsAddress {
  const address: Record<string, unknown> = {};
  for (const [field, pointer] of Object.entries(shape.address)) {
    const value = valueAt(body, pointer);
    if (value !== undefined) address[field] = value;
  }
  return address as unknown as UsAddress;
}

/** The lines an order body carries, read where the dialect puts them (lines without both left out). */
export function linesOf(shape: OrderBodyShape, body: Record<string, unknown>): OrderLine[] {
  const items = valueAt(body, shape.items);
  if (!Array.isArray(items)) return [];
  return items.flatMap((line): OrderLine[] => {
    const sku = valueAt(line, shape.sku);
    const quantity = valueAt(line, shape.quantity);
    return typeof sku === 'string' && typeof quantity === 'number' ? [{ sku, quantity }] : [];
  });
}

/**
 * A copy of the body with another shipping address: every address field of
 * the dialect dropped, then this address's fields put where it says.
 */
export function withAddress(
  shape: OrderBodyShape,
  body: Record<string, unknown>,
  address: UsAddress,
): OrderBody {
  const copy = structuredClone(body);
  for (const pointer of Object.values(shape.address)) {
    const cut = pointer.lastIndexOf('/');
    const parent = valueAt(copy, pointer.slice(0, cut));
    if (typeof parent === 'object' && parent !== null) {
      delete (parent as Record<string, unknown>)[unescapeToken(pointer.slice(cut + 1))];
    }
  }
  for (const [field, value] of Object.entries(address) as [keyof UsAddress, unknown][]) {
    if (value !== undefined) put(copy, shape.address[field], value);
  }
  return copy as OrderBody;
}

/** The cheapest valid line: a product not shipped by freight, at its minimum quantity. */
export function cheapestLine(products: readonly Product[]): OrderLine {
  const minimum = (p: Product) => Math.max(1, p.min_quantity);
  const product = products
    .filter((p) => !p.ships_by_freight)
    .sort((a, b) => a.unit_price * minimum(a) - b.unit_price * minimum(b))[0];
  if (!product) throw new Error('the catalog has no product that ships without freight');
  return { sku: product.sku, quantity: minimum(product) };
}

/**
 * What the goods of these lines cost at catalog prices, in cents. Only for
 * generating inputs (staying under a budget, going over it): what the target
 * charges, shipping included, is read from it (`orderTotal`, `quotedTotal`).
 */
export function goodsTotal(products: readonly Product[], items: readonly OrderLine[]): number {
  return items.reduce((sum, line) => {
    const product = products.find((p) => p.sku === line.sku);
    return sum + (product ? product.unit_price * line.quantity : 0);
  }, 0);
}

/**
 * The products a catalog answer lists, read where the dialect says
 * (`dialect.answers.product`, prices in `dialect.money.prices`), in the suite's one
 * product type. Entries without a SKU or a price there are left out.
 */
export function productsOf(
  dialect: Pick<Dialect, 'answers' | 'money'>,
  data: readonly unknown[],
): Product[] {
  const at = dialect.answers.product;
  return data.flatMap((raw): Product[] => {
    const sku = valueAt(raw, at.sku);
    const unitPrice = centsIn(moneyAt(dialect.money, 'prices'), valueAt(raw, at.unitPrice));
    if (typeof sku !== 'string' || unitPrice === undefined) return [];
    const name = (raw as { name?: unknown } | null)?.name;
    const minimum = valueAt(raw, at.minQuantity);
    return [
      {
        sku,
        name: typeof name === 'string' ? name : sku,
        unit_price: unitPrice,
        min_quantity: typeof minimum === 'number' ? minimum : 1,
        ships_by_freight: valueAt(raw, at.shipsByFreight) === true,
      },
    ];
  });
}
