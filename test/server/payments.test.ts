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

  it('charges (control addition): a card order is charged its total once; refusals and invoice orders charge nothing', async () => {
    const card = await h.partner({ billing: { method: 'card', card: 'valid' } });
    const placed = await h.placeOrder(card, { external_id: 'charged-1' }, 'c1');
    expect(placed.status).toBe(201);
    const replayed = await h.placeOrder(card, { external_id: 'charged-1' }, 'c1');
    expect(replayed.status).toBe(200);
    await h.patchAccount(card.accountId, { billing: { card: 'declined' } });
    expect((await h.placeOrder(card, { external_id: 'refused-1' })).status).toBe(402);
    const charges = (await h.control('GET', `/accounts/${card.accountId}/charges`)).body.data;
    expect(charges).toEqual([
      {
        id: expect.stringMatching(/^ch_/),
        order_id: placed.body.id,
        external_id: placed.body.external_id,
        mode: 'test',
        amount: placed.body.total.amount,
        currency: 'USD',
        created_at: placed.body.created_at,
      },
    ]);
    const invoice = await h.partner();
    expect((await h.placeOrder(invoice)).status).toBe(201);
    expect((await h.control('GET', `/accounts/${invoice.accountId}/charges`)).body.data).toEqual(
      [],
    );
    expectProblemShape(await h.control('GET', '/accounts/acct_missing/charges'), 'not_found', 404);
  });
});
