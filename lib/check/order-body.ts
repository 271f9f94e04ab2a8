import type { Product } from '../control/types.js';
import type { OrderBodyShape } from '../target/dialect.js';
import type { UsAddress } from './us-address.js';

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

/**
 * The one order builder: every check and every arbitrary makes its order
 * bodies here, and only the dialect says where each part goes, so that a
 * profile describing another order body changes no check.
 */
export function orderBodyOf(shape: OrderBodyShape, spec: OrderSpec): OrderBody {
  const body: Record<string, unknown> = { external_id: spec.externalId };
  const items = spec.items.map((line) => {
    const entry: Record<string, unknown> = {};
    put(entry, shape.sku, line.sku);
    put(entry, shape.quantity, line.quantity);
    return entry;
  });
  put(body, shape.items, items);
  for (const [field, value] of Object.entries(spec.address) as [keyof UsAddress, unknown][]) {
    if (value !== undefined) put(body, shape.address[field], value);
  }
  return body as OrderBody;
}

/**
 * The body of a quote for the same lines and address (contract section 2:
 * `POST /quotes` takes `{items, shipping_address}`): the order body without
 * its `external_id`, until a profile describes the quote body of its own.
 */
export function quoteBodyOf(order: Record<string, unknown>): Record<string, unknown> {
  const { external_id: _, ...quote } = order;
  return quote;
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

function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[unescapeToken(raw)];
  }
  return node;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Sets the value at a JSON pointer (RFC 6901), making the objects on the way. */
function put(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1).map(unescapeToken);
  const last = tokens.pop();
  if (last === undefined) throw new Error(`order body pointer "${pointer}" names no field`);
  let node = target;
  for (const token of tokens) {
    const next = node[token];
    if (typeof next !== 'object' || next === null) node[token] = {};
    node = node[token] as Record<string, unknown>;
  }
  node[last] = value;
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
 * The products a catalog answer lists (contract section 2: each `{sku, name,
 * unit_price, min_quantity, ships_by_freight}`, money as `{amount, currency}`
 * or integer cents), in the suite's one product type. Entries without a SKU
 * or a price are left out.
 */
export function productsOf(data: readonly unknown[]): Product[] {
  return data.flatMap((raw): Product[] => {
    const p = (raw ?? {}) as Record<string, unknown>;
    const unitPrice = cents(p.unit_price);
    if (typeof p.sku !== 'string' || unitPrice === undefined) return [];
    return [
      {
        sku: p.sku,
        name: typeof p.name === 'string' ? p.name : p.sku,
        unit_price: unitPrice,
        min_quantity: typeof p.min_quantity === 'number' ? p.min_quantity : 1,
        ships_by_freight: p.ships_by_freight === true,
      },
    ];
  });
}

/** Contract section 2: money is `{amount, currency}`; a bare integer is read as cents too. */
export function cents(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const amount = (value as { amount?: unknown } | null | undefined)?.amount;
  return typeof amount === 'number' && Number.isInteger(amount) ? amount : undefined;
}
