import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('GET /account (§2, contract §2)', () => {
  it("shows the account, livemode, billing method, limits as money and the key's scopes", async () => {
    const partner = await h.partner(
      {
        name: 'Acme Prints',
        billing: { method: 'card' },
        limits: { max_order_value: 25_000, max_orders_per_day: 7 },
      },
      { scopes: ['orders:read', 'catalog:read'] },
    );
    const reply = await h.api('GET', '/account', { token: partner.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: partner.accountId,
      name: 'Acme Prints',
      livemode: false,
      billing_method: 'card',
      limits: { max_order_value: { amount: 25_000, currency: 'USD' }, max_orders_per_day: 7 },
      scopes: ['orders:read', 'catalog:read'],
    });
  });

  it('defaults: max_order_value 100000 cents, 50 orders a day, invoice billing (contract §3)', async () => {
    const partner = await h.partner();
    const { body } = await h.api('GET', '/account', { token: partner.token });
    expect(body.limits).toEqual({
      max_order_value: { amount: 100_000, currency: 'USD' },
      max_orders_per_day: 50,
    });
    expect(body.billing_method).toBe('invoice');
  });

  it('refuses unknown query parameters with 422 on the parameter', async () => {
    const partner = await h.partner();
    const reply = await h.api('GET', '/account?verbose=1', { token: partner.token });
    expect(expectProblemShape(reply, 'validation_failed', 422).errors).toEqual([
      { detail: 'is not a known parameter.', pointer: 'verbose' },
    ]);
  });
});
