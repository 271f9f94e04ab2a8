import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('catalog (§4, contract §2)', () => {
  it('lists the default products: at least five, one by freight, one with min_quantity above 1 (contract §3)', async () => {
    const partner = await h.partner();
    const reply = await h.api('GET', '/catalog/products', { token: partner.token });
    expect(reply.status).toBe(200);
    const products = reply.body.data as Array<Record<string, unknown>>;
    expect(products.length).toBeGreaterThanOrEqual(5);
    expect(products.some((p) => p.ships_by_freight === true)).toBe(true);
    expect(products.some((p) => (p.min_quantity as number) > 1)).toBe(true);
    for (const product of products) {
      expect(product).toEqual({
        sku: expect.any(String),
        name: expect.any(String),
        unit_price: { amount: expect.any(Number), currency: 'USD' },
        min_quantity: expect.any(Number),
        ships_by_freight: expect.any(Boolean),
      });
    }
  });

  it('reads one product by SKU; 404 not_found for an unknown SKU', async () => {
    const partner = await h.partner({
      products: [
        { sku: 'ONLY-1', name: 'Only', unit_price: 100, min_quantity: 2, ships_by_freight: false },
      ],
    });
    const reply = await h.api('GET', '/catalog/products/ONLY-1', { token: partner.token });
    expect(reply.body).toEqual({
      sku: 'ONLY-1',
      name: 'Only',
      unit_price: { amount: 100, currency: 'USD' },
      min_quantity: 2,
      ships_by_freight: false,
    });
    expectProblemShape(
      await h.api('GET', '/catalog/products/MUG-WHT-11OZ', { token: partner.token }),
      'not_found',
      404,
    );
  });

  it('pages with limit and starting_after (a SKU)', async () => {
    const partner = await h.partner();
    const first = await h.api('GET', '/catalog/products?limit=2', { token: partner.token });
    expect(first.body.has_more).toBe(true);
    const next = await h.api(
      'GET',
      `/catalog/products?limit=100&starting_after=${first.body.data[1].sku}`,
      { token: partner.token },
    );
    const all = await h.api('GET', '/catalog/products', { token: partner.token });
    expect([...first.body.data, ...next.body.data]).toEqual(all.body.data);
  });
});

describe('quotes (§4, contract §2)', () => {
  const quoteBody = (overrides: Record<string, unknown> = {}) => {
    const { items, shipping_address } = orderBody(overrides);
    return { items, shipping_address } as never;
  };

  it('creates a quote: 201 {id, items, subtotal, shipping, total, expires_at}; reads it back', async () => {
    const partner = await h.partner();
    const reply = await h.api('POST', '/quotes', {
      token: partner.token,
      body: quoteBody({ items: [{ sku: 'POSTER-A2', quantity: 3 }] }),
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^quo_/),
      items: [
        {
          sku: 'POSTER-A2',
          quantity: 3,
          unit_price: { amount: 1200, currency: 'USD' },
          amount: { amount: 3600, currency: 'USD' },
        },
      ],
      subtotal: { amount: 3600, currency: 'USD' },
      shipping: { amount: 0, currency: 'USD' },
      total: { amount: 3600, currency: 'USD' },
      expires_at: expect.any(String),
    });
    expect(Date.parse(reply.body.expires_at)).toBeGreaterThan(Date.parse(reply.body.created_at));
    expect((await h.api('GET', `/quotes/${reply.body.id}`, { token: partner.token })).body).toEqual(
      reply.body,
    );
    expectProblemShape(
      await h.api('GET', '/quotes/quo_missing', { token: partner.token }),
      'not_found',
      404,
    );
  });

  it('applies the order rules 1–4 and refuses unknown fields', async () => {
    const partner = await h.partner();
    const freight = await h.api('POST', '/quotes', {
      token: partner.token,
      body: quoteBody({ items: [{ sku: 'CANVAS-XL-FRAMED', quantity: 1 }] }),
    });
    expect(expectProblemShape(freight, 'validation_failed', 422).errors[0].pointer).toBe(
      '/items/0/sku',
    );
    const withExternal = await h.api('POST', '/quotes', {
      token: partner.token,
      body: orderBody() as never,
    });
    expect(expectProblemShape(withExternal, 'validation_failed', 422).errors[0].pointer).toBe(
      '/external_id',
    );
  });
});
