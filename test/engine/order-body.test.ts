import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressOf,
  cheapestLine,
  goodsTotal,
  linesOf,
  orderBodyOf,
  productsOf,
  quoteBodyOf,
  withAddress,
} from '../../lib/check/order-body.js';
import { type OrderBodyShape, REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { orderBreakingOneRule, unknownIn } from '../../suites/arbitraries/orderBreakingOneRule.js';

/** Prices as bare integers of cents. */
const CENTS = {
  ...REFERENCE_DIALECT,
  money: { ...REFERENCE_DIALECT.money, format: 'cents' as const },
};

const address = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
};
const spec = { externalId: 'ct-1', items: [{ sku: 'MUG', quantity: 2 }], address };

const OTHER: OrderBodyShape = {
  items: '/lines',
  sku: '/item/code',
  quantity: '/count',
  address: {
    name: '/ship_to/recipient',
    line1: '/ship_to/street',
    line2: '/ship_to/street2',
    city: '/ship_to/city',
    state: '/ship_to/region',
    postal_code: '/ship_to/zip',
    country: '/ship_to/country',
  },
};

describe('the one order builder', () => {
  it('makes the reference body of the target contract, section 2, field for field and in order', () => {
    const body = orderBodyOf(REFERENCE_DIALECT.orderBody, spec);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        external_id: 'ct-1',
        items: [{ sku: 'MUG', quantity: 2 }],
        shipping_address: address,
      }),
    );
  });

  it('breaks one rule of section 4 in the shape of the dialect, pointing into that shape', () => {
    const catalog = {
      products: productsOf(CENTS, [
        { sku: 'MUG', unit_price: 1100, min_quantity: 1, ships_by_freight: false },
        { sku: 'STICKER', unit_price: 125, min_quantity: 25, ships_by_freight: false },
        { sku: 'PALLET', unit_price: 38000, min_quantity: 1, ships_by_freight: true },
      ]),
      maxOrderValue: 500_000,
    };
    const pointers = new Set<string>();
    for (const broken of fc.sample(orderBreakingOneRule(catalog, OTHER), {
      seed: 7,
      numRuns: 300,
    })) {
      const body = broken.body as { lines?: { item?: { code?: string } }[]; ship_to?: object };
      if (broken.rule !== 'missing_field') expect(Array.isArray(body.lines)).toBe(true);
      expect(body).not.toHaveProperty('items');
      expect(body).not.toHaveProperty('shipping_address');
      if (broken.pointer) pointers.add(broken.pointer.replace(/\/\d+\//, '/N/'));
    }
    for (const pointer of [
      '/lines',
      '/ship_to',
      '/lines/N/item/code',
      '/lines/N/count',
      '/ship_to/country',
    ]) {
      expect(pointers).toContain(pointer);
    }
    for (const pointer of pointers) {
      // Into the shape: the reference's member names never appear.
      expect(pointer).not.toMatch(/^\/(items|shipping_address)(\/|$)/);
    }
  });

  it("an unknown field never takes the name of one the dialect's body has there", () => {
    // `unit` and `basket` are nouns the unknown-name generator draws, and field names of a dialect.
    expect(unknownIn({ unit: '4B', street: '1 Main St' }, 'unit')).toBe('unit_extra');
    expect(unknownIn({ basket: [], basket_extra: 1 }, 'basket')).toBe('basket_extra_extra');
    expect(unknownIn({ street: '1 Main St' }, 'gift_message')).toBe('gift_message');
  });

  it('puts every part where another dialect says, external_id staying at the top (section 4)', () => {
    const shape: OrderBodyShape = {
      items: '/order/lines',
      sku: '/product/code',
      quantity: '/qty',
      address: {
        name: '/ship_to/recipient',
        line1: '/ship_to/street~1line',
        line2: '/ship_to/street2',
        city: '/ship_to/city',
        state: '/ship_to/region',
        postal_code: '/ship_to/zip',
        country: '/country',
      },
    };
    expect(orderBodyOf(shape, spec)).toEqual({
      external_id: 'ct-1',
      order: { lines: [{ product: { code: 'MUG' }, qty: 2 }] },
      ship_to: {
        recipient: 'Ada Lovelace',
        'street/line': '1 Main St',
        city: 'Springfield',
        region: 'IL',
        zip: '62701',
      },
      country: 'US',
    });
  });
});

describe('the one product type', () => {
  const products = productsOf(REFERENCE_DIALECT, [
    {
      sku: 'A',
      name: 'a',
      unit_price: { amount: 500, currency: 'USD' },
      min_quantity: 3,
      ships_by_freight: false,
    },
    { sku: 'B', name: 'b', unit_price: { amount: 1200 }, min_quantity: 1, ships_by_freight: false },
    // A bare integer is not money of the object format: cents or dollars, the suite does not guess.
    { sku: 'E', name: 'e', unit_price: 1200, min_quantity: 1, ships_by_freight: false },
    { sku: 'C', name: 'c', unit_price: { amount: 1 }, min_quantity: 1, ships_by_freight: true },
    { sku: 'D', unit_price: 'free' },
    null,
  ]);

  it('reads catalog answers in cents, leaving out entries without a SKU or a price', () => {
    expect(products.map((p) => [p.sku, p.unit_price, p.min_quantity])).toEqual([
      ['A', 500, 3],
      ['B', 1200, 1],
      ['C', 1, 1],
    ]);
  });

  it('reads products where the dialect says, prices in its money format', () => {
    const other = {
      ...REFERENCE_DIALECT,
      answers: {
        ...REFERENCE_DIALECT.answers,
        product: {
          sku: '/code',
          unitPrice: '/price',
          minQuantity: '/moq',
          shipsByFreight: '/freight',
        },
      },
      money: { ...REFERENCE_DIALECT.money, format: 'decimal' as const },
    };
    expect(
      productsOf(other, [
        { code: 'X', price: '12.50', moq: 2, freight: true },
        { code: 'Y', price: 1250 },
      ]),
    ).toEqual([{ sku: 'X', name: 'X', unit_price: 1250, min_quantity: 2, ships_by_freight: true }]);
  });

  it('picks the cheapest line not shipped by freight, at its minimum', () => {
    expect(cheapestLine(products)).toEqual({ sku: 'B', quantity: 1 });
    expect(
      goodsTotal(products, [
        { sku: 'A', quantity: 3 },
        { sku: 'B', quantity: 1 },
      ]),
    ).toBe(2700);
  });
});

describe('editing an order body through the dialect', () => {
  const shape = REFERENCE_DIALECT.orderBody;

  it('reads and replaces the address where the dialect puts it, leaving the original as it was', () => {
    const body = orderBodyOf(shape, spec);
    const moved = withAddress(shape, body, { ...addressOf(shape, body), line2: 'Apt 2' });
    expect(JSON.stringify(moved)).toBe(
      JSON.stringify({ ...body, shipping_address: { ...address, line2: 'Apt 2' } }),
    );
    expect(addressOf(shape, body)).toEqual(address);
    expect(linesOf(OTHER, orderBodyOf(OTHER, spec))).toEqual(spec.items);
    expect(quoteBodyOf(REFERENCE_DIALECT, moved)).toEqual({
      items: body.items,
      shipping_address: moved.shipping_address,
    });
    // A quote body of its own: lines and address move to its places, anything else goes along.
    const quoteShape = { ...OTHER, items: '/quote/lines', sku: '/sku', quantity: '/n' };
    const dialect = { orderBody: shape, quoteBody: quoteShape };
    expect(quoteBodyOf(dialect, { ...body, secret: 's' })).toEqual({
      secret: 's',
      quote: { lines: spec.items.map((line) => ({ sku: line.sku, n: line.quantity })) },
      ship_to: {
        recipient: address.name,
        street: address.line1,
        city: address.city,
        region: address.state,
        zip: address.postal_code,
        country: address.country,
      },
    });
  });
});
