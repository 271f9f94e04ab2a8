import { describe, expect, it } from 'vitest';
import { cheapestLine, goodsTotal, orderBodyOf, productsOf } from '../../lib/check/order-body.js';
import { type OrderBodyShape, REFERENCE_DIALECT } from '../../lib/target/dialect.js';

const address = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
};
const spec = { externalId: 'ct-1', items: [{ sku: 'MUG', quantity: 2 }], address };

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
  const products = productsOf([
    {
      sku: 'A',
      name: 'a',
      unit_price: { amount: 500, currency: 'USD' },
      min_quantity: 3,
      ships_by_freight: false,
    },
    { sku: 'B', name: 'b', unit_price: 1200, min_quantity: 1, ships_by_freight: false },
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
