import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

const quoteBody = () => {
  const { items, shipping_address } = orderBody();
  return { items, shipping_address } as never;
};

describe('account states', () => {
  it('suspended: 403 partner_suspended on new orders (and quotes); reads and tokens keep working (§5.11)', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    await h.patchAccount(partner.accountId, { suspended: true });
    expectProblemShape(await h.placeOrder(partner), 'partner_suspended', 403);
    expectProblemShape(
      await h.api('POST', '/quotes', { token: partner.token, body: quoteBody() }),
      'partner_suspended',
      403,
    );
    expect((await h.api('GET', `/orders/${order.body.id}`, { token: partner.token })).status).toBe(
      200,
    );
    expect((await h.api('GET', '/account', { token: await h.token(partner.key) })).status).toBe(
      200,
    );
  });

  it('incomplete: 409 account_incomplete on new orders (§7)', async () => {
    const partner = await h.partner({ incomplete: true });
    expectProblemShape(await h.placeOrder(partner), 'account_incomplete', 409);
    expect((await h.api('GET', '/orders', { token: partner.token })).status).toBe(200);
  });

  it('read_only: 503 read_only on new orders, quotes and other writes; reads and tokens work (§7)', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    await h.patchAccount(partner.accountId, { service: 'read_only' });
    expectProblemShape(await h.placeOrder(partner), 'read_only', 503);
    expectProblemShape(
      await h.api('POST', '/quotes', { token: partner.token, body: quoteBody() }),
      'read_only',
      503,
    );
    expectProblemShape(
      await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token }),
      'read_only',
      503,
    );
    expectProblemShape(
      await h.api('POST', '/webhook-endpoints', {
        token: partner.token,
        body: { url: 'https://example.com/hook' },
      }),
      'read_only',
      503,
    );
    expect((await h.api('GET', '/orders', { token: partner.token })).status).toBe(200);
    expect((await h.tokenRequest(partner.key)).status).toBe(200);
    await h.patchAccount(partner.accountId, { service: 'normal' });
    expect((await h.placeOrder(partner)).status).toBe(201);
  });

  it('unavailable: 503 api_unavailable to everything, token requests included', async () => {
    const partner = await h.partner();
    await h.patchAccount(partner.accountId, { service: 'unavailable' });
    expectProblemShape(
      await h.api('GET', '/account', { token: partner.token }),
      'api_unavailable',
      503,
    );
    expectProblemShape(await h.placeOrder(partner), 'api_unavailable', 503);
    const token = await h.tokenRequest(partner.key);
    expect(expectProblemShape(token, 'api_unavailable', 503).error).toBe('temporarily_unavailable');
  });

  it('states are per account: another account is unaffected', async () => {
    const a = await h.partner();
    const b = await h.partner();
    await h.patchAccount(a.accountId, { service: 'unavailable', suspended: true });
    expectProblemShape(await h.placeOrder(a), 'api_unavailable', 503);
    expect((await h.placeOrder(b)).status).toBe(201);
  });
});
