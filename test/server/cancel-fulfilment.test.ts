import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('cancellation (§3 order cancellation)', () => {
  it('cancels within the window: 200 with the cancelled order and an order.cancelled event', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    const reply = await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: order.body.id, status: 'cancelled' });
    expect(
      (await h.api('GET', `/orders/${order.body.id}`, { token: partner.token })).body.status,
    ).toBe('cancelled');
    const events = await h.api('GET', '/events?type=order.cancelled', { token: partner.token });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        type: 'order.cancelled',
        data: { object: expect.objectContaining({ status: 'cancelled' }) },
      }),
    ]);
  });

  it('409 not_cancellable when already cancelled; detail says so', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token });
    const again = await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token });
    expect(expectProblemShape(again, 'not_cancellable', 409).detail).toMatch(/already cancelled/);
  });

  it('409 not_cancellable once production has started; detail says so', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    await h.startProduction(partner.accountId, order.body.id);
    expect(
      (await h.api('GET', `/orders/${order.body.id}`, { token: partner.token })).body.status,
    ).toBe('in_production');
    const reply = await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token });
    expect(expectProblemShape(reply, 'not_cancellable', 409).detail).toMatch(/[Pp]roduction/);
  });

  it('409 not_cancellable once the 24-hour window (account clock) has closed; detail says so', async () => {
    const partner = await h.partner();
    const early = await h.placeOrder(partner);
    const late = await h.placeOrder(partner);
    await h.advance(partner.accountId, 23 * 3600 + 3599);
    const token = await h.token(partner.key);
    expect((await h.api('POST', `/orders/${early.body.id}/cancel`, { token })).status).toBe(200);
    await h.advance(partner.accountId, 2);
    const reply = await h.api('POST', `/orders/${late.body.id}/cancel`, { token });
    expect(expectProblemShape(reply, 'not_cancellable', 409).detail).toMatch(/window/);
  });

  it('404 for an order of another mode or account', async () => {
    const partner = await h.partner();
    expectProblemShape(
      await h.api('POST', '/orders/ord_missing/cancel', { token: partner.token }),
      'not_found',
      404,
    );
  });
});

describe('shipments and invoice (contract §2, §3 ship)', () => {
  it('no shipments and 404 invoice until shipped; then one shipment and its invoice', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    const id = order.body.id as string;
    expect((await h.api('GET', `/orders/${id}/shipments`, { token: partner.token })).body).toEqual({
      data: [],
      has_more: false,
    });
    expectProblemShape(
      await h.api('GET', `/orders/${id}/invoice`, { token: partner.token }),
      'not_found',
      404,
    );
    await h.shipOrder(partner.accountId, id);
    const shipped = await h.api('GET', `/orders/${id}`, { token: partner.token });
    expect(shipped.body.status).toBe('shipped');
    const shipments = await h.api('GET', `/orders/${id}/shipments`, { token: partner.token });
    expect(shipments.body.data).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^shp_/),
        order_id: id,
        carrier: expect.any(String),
        tracking_number: expect.any(String),
      }),
    ]);
    const invoice = await h.api('GET', `/orders/${id}/invoice`, { token: partner.token });
    expect(invoice.body).toMatchObject({ order_id: id, total: order.body.total, status: 'open' });
    expectProblemShape(
      await h.api('POST', `/orders/${id}/cancel`, { token: partner.token }),
      'not_cancellable',
      409,
    );
  });

  it('a cancelled order cannot be produced or shipped (control 409)', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    await h.api('POST', `/orders/${order.body.id}/cancel`, { token: partner.token });
    const reply = await h.control(
      'POST',
      `/accounts/${partner.accountId}/orders/${order.body.id}/ship`,
    );
    expect(reply.status).toBe(409);
  });
});
