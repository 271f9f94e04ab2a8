import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, type Partner } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

async function livePartner(): Promise<Partner> {
  return h.partner({ live_access: true, limits: { max_order_value: 1_000_000 } }, { mode: 'live' });
}

const mugs = (quantity: number) => ({ items: [{ sku: 'MUG-WHT-11OZ', quantity }] });

describe('probation of new live keys (§3)', () => {
  it('at most 3 orders in the first 24 hours, cancelled ones included; the 4th is 422 limit_exceeded', async () => {
    const partner = await livePartner();
    const first = await h.placeOrder(partner);
    expect(first.status).toBe(201);
    await h.api('POST', `/orders/${first.body.id}/cancel`, { token: partner.token });
    expect((await h.placeOrder(partner)).status).toBe(201);
    expect((await h.placeOrder(partner)).status).toBe(201);
    expectProblemShape(await h.placeOrder(partner), 'limit_exceeded', 422);
  });

  it('at most $500.00 in the first 24 hours; exactly $500.00 is allowed', async () => {
    const partner = await livePartner();
    expectProblemShape(await h.placeOrder(partner, mugs(56)), 'limit_exceeded', 422); // $504.00
    expect((await h.placeOrder(partner, mugs(50))).status).toBe(201); // $450.00
    expectProblemShape(await h.placeOrder(partner, mugs(6)), 'limit_exceeded', 422); // $504.00 total
    const fifty = {
      items: [
        { sku: 'HOODIE-GRY-L', quantity: 1 },
        { sku: 'TSHIRT-BLK-M', quantity: 1 },
      ],
    };
    expect((await h.placeOrder(partner, fifty)).status).toBe(201); // $500.00 exactly
    const stickers = { items: [{ sku: 'STICKER-SHEET', quantity: 10 }] };
    expectProblemShape(await h.placeOrder(partner, stickers), 'limit_exceeded', 422); // $515.00
  });

  it('ends after 24 hours of the account clock', async () => {
    const partner = await livePartner();
    for (let i = 0; i < 3; i++) expect((await h.placeOrder(partner)).status).toBe(201);
    expectProblemShape(await h.placeOrder(partner), 'limit_exceeded', 422);
    await h.advance(partner.accountId, 24 * 3600);
    expect((await h.placeOrder({ ...partner, token: await h.token(partner.key) })).status).toBe(
      201,
    );
  });

  it('can be ended early by the operator', async () => {
    const partner = await livePartner();
    expectProblemShape(await h.placeOrder(partner, mugs(600)), 'limit_exceeded', 422);
    expect(
      (await h.control('POST', `/keys/${partner.key.access_key_id}/end-probation`)).status,
    ).toBe(204);
    expect((await h.placeOrder(partner, mugs(600))).status).toBe(201);
  });

  it('counts per live key, and never applies to test keys', async () => {
    const partner = await livePartner();
    for (let i = 0; i < 3; i++) await h.placeOrder(partner);
    const second = await h.key(partner.accountId, { mode: 'live' });
    expect(
      (await h.placeOrder({ ...partner, key: second, token: await h.token(second) })).status,
    ).toBe(201);
    const test = await h.partner();
    for (let i = 0; i < 4; i++) expect((await h.placeOrder(test)).status).toBe(201);
  });
});
