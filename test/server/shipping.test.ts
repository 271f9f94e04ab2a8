import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { parseFlags } from '../../server/cli/flags.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

// A server that charges shipping is legal (§4 rule 5: the limits apply to the total); the
// dialect matrix runs one so that a suite adding up prices instead of reading totals is caught.
const SHIPPING = 795;
const app = await buildApp({ controlToken: CONTROL_TOKEN, shippingCents: SHIPPING });
afterAll(() => app.close());
const h = harness(app);

const POSTERS = { items: [{ sku: 'POSTER-A2', quantity: 3 }] };
const LINES = 3 * 1200;

describe('a flat shipping charge (AppOptions.shippingCents)', () => {
  it('is the quote shipping and part of its total', async () => {
    const partner = await h.partner();
    const { items, shipping_address } = orderBody(POSTERS);
    const reply = await h.api('POST', '/quotes', {
      token: partner.token,
      body: { items, shipping_address } as never,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      subtotal: { amount: LINES },
      shipping: { amount: SHIPPING },
      total: { amount: LINES + SHIPPING },
    });
  });

  it("is part of an order's total, and the maximum order value applies to that total", async () => {
    const partner = await h.partner({ limits: { max_order_value: LINES + SHIPPING } });
    const placed = await h.placeOrder(partner, POSTERS);
    expect(placed.status).toBe(201);
    expect(placed.body.total).toEqual({ amount: LINES + SHIPPING, currency: 'USD' });

    const tight = await h.partner({ limits: { max_order_value: LINES + SHIPPING - 1 } });
    const refused = await h.placeOrder(tight, POSTERS);
    expect(expectProblemShape(refused, 'validation_failed', 422).detail).toMatch(/total/);
  });

  it('is refused when not a whole number of cents', async () => {
    await expect(buildApp({ shippingCents: -1 })).rejects.toThrow(/shippingCents/);
    await expect(buildApp({ shippingCents: 1.5 })).rejects.toThrow(/shippingCents/);
    expect(parseFlags(['--shipping-cents', '795'])).toMatchObject({
      ok: true,
      options: { shippingCents: 795 },
    });
    expect(parseFlags(['--shipping-cents', '7.95'])).toEqual({
      ok: false,
      error: '--shipping-cents must be a whole number of cents, got "7.95"',
    });
  });
});
