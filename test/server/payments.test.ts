import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('payments (§7: the four 402 codes)', () => {
  it.each([
    ['declined', 'card_declined'],
    ['authentication_required', 'authentication_required'],
    ['missing', 'payment_method_required'],
    ['failing', 'payment_failed'],
  ])('card %s gives 402 %s and no order (§4 rule 5)', async (card, code) => {
    const partner = await h.partner({
      billing: { method: 'card', card, decline_code: 'do_not_honor' },
    });
    const reply = await h.placeOrder(partner);
    const body = expectProblemShape(reply, code, 402);
    // §2: decline_code only on card_declined.
    if (code === 'card_declined') expect(body.decline_code).toBe('do_not_honor');
    else expect(body).not.toHaveProperty('decline_code');
    expect(body).not.toHaveProperty('required_scope');
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toEqual([]);
    expect((await h.api('GET', '/events', { token: partner.token })).body.data).toEqual([]);
  });

  it('after a 402 the order is sent again (a new key, or the same: processed afresh) and placed once', async () => {
    const partner = await h.partner({ billing: { method: 'card', card: 'declined' } });
    const body = orderBody();
    const declined = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'p1',
      body: body as never,
    });
    expect(declined.status).toBe(402);
    await h.patchAccount(partner.accountId, { billing: { card: 'valid' } });
    const sameKey = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'p1',
      body: body as never,
    });
    expect(sameKey.status).toBe(201);
    const newKey = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'p2',
      body: body as never,
    });
    expectProblemShape(newKey, 'duplicate_external_id', 409);
  });

  it('invoice billing never fails payment, whatever the card setting', async () => {
    const partner = await h.partner({ billing: { method: 'invoice', card: 'failing' } });
    expect((await h.placeOrder(partner)).status).toBe(201);
  });
});
