import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('POST /orders (§4, contract §2)', () => {
  it('places an order: 201 with the §2 order, Location, and an order.created event', async () => {
    const partner = await h.partner();
    const body = orderBody({
      items: [
        { sku: 'MUG-WHT-11OZ', quantity: 3 },
        { sku: 'STICKER-SHEET', quantity: 10 },
      ],
    });
    const reply = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: randomUUID(),
      body: body as never,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      external_id: body.external_id,
      status: 'received',
      items: [
        {
          sku: 'MUG-WHT-11OZ',
          quantity: 3,
          unit_price: { amount: 900, currency: 'USD' },
          amount: { amount: 2700, currency: 'USD' },
        },
        {
          sku: 'STICKER-SHEET',
          quantity: 10,
          unit_price: { amount: 150, currency: 'USD' },
          amount: { amount: 1500, currency: 'USD' },
        },
      ],
      total: { amount: 4200, currency: 'USD' },
      shipping_address: body.shipping_address,
      livemode: false,
    });
    const created = Date.parse(reply.body.created_at);
    expect(Date.parse(reply.body.cancellable_until) - created).toBe(24 * 3600 * 1000);
    expect(reply.headers.location).toBe(`/api/on-demand/v1/orders/${reply.body.id}`);
    const read = await h.api('GET', `/orders/${reply.body.id}`, { token: partner.token });
    expect(read.body).toEqual(reply.body);
    const events = await h.api('GET', '/events', { token: partner.token });
    expect(events.body.data[0]).toMatchObject({
      type: 'order.created',
      livemode: false,
      data: { object: { id: reply.body.id } },
    });
  });

  it('needs Content-Type: application/json (415)', async () => {
    const partner = await h.partner();
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=latin1' },
      {},
    ]) {
      const reply = await h.api('POST', '/orders', {
        token: partner.token,
        idempotencyKey: randomUUID(),
        payload: JSON.stringify(orderBody()),
        headers,
      });
      expectProblemShape(reply, 'unsupported_media_type', 415);
    }
  });

  it('malformed JSON is 422 validation_failed with pointer "" (contract §2)', async () => {
    const partner = await h.partner();
    for (const payload of ['{"external_id":', '', '[1,2', '\u00ff']) {
      const reply = await h.api('POST', '/orders', {
        token: partner.token,
        idempotencyKey: randomUUID(),
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors[0].pointer).toBe('');
    }
  });

  it('unknown and missing fields are 422, each at its JSON pointer (§4)', async () => {
    const partner = await h.partner();
    const body = orderBody({
      gift: true,
      items: [{ sku: 'MUG-WHT-11OZ', quantity: 1, colour: 'red' }],
    });
    delete (body.shipping_address as Record<string, unknown>).city;
    delete body.external_id;
    const reply = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: randomUUID(),
      body: body as never,
    });
    const problem = expectProblemShape(reply, 'validation_failed', 422);
    const pointers = problem.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual([
      '/external_id',
      '/gift',
      '/items/0/colour',
      '/shipping_address/city',
    ]);
    for (const error of problem.errors) expect(typeof error.detail).toBe('string');
  });

  it('type and size errors are 422 at their pointers', async () => {
    const partner = await h.partner();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ external_id: '' }, '/external_id'],
      [{ external_id: 'x'.repeat(65) }, '/external_id'],
      [{ items: [] }, '/items'],
      [
        { items: Array.from({ length: 101 }, () => ({ sku: 'MUG-WHT-11OZ', quantity: 1 })) },
        '/items',
      ],
      [{ items: [{ sku: 'MUG-WHT-11OZ', quantity: 1.5 }] }, '/items/0/quantity'],
      [{ items: [{ sku: 'MUG-WHT-11OZ', quantity: '2' }] }, '/items/0/quantity'],
      [{ items: [{ sku: 'MUG-WHT-11OZ', quantity: 0 }] }, '/items/0/quantity'],
      [{ shipping_address: 'somewhere' }, '/shipping_address'],
    ];
    for (const [overrides, pointer] of cases) {
      const reply = await h.placeOrder(partner, overrides);
      const problem = expectProblemShape(reply, 'validation_failed', 422);
      expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    const notObject = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'k',
      body: [1],
    });
    expect(expectProblemShape(notObject, 'validation_failed', 422).errors[0].pointer).toBe('');
  });

  describe('the five order rules (§4), each 422 validation_failed', () => {
    it("1. every SKU must be on the account's product list", async () => {
      const partner = await h.partner();
      const reply = await h.placeOrder(partner, {
        items: [
          { sku: 'MUG-WHT-11OZ', quantity: 1 },
          { sku: 'NOT-A-SKU', quantity: 1 },
        ],
      });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors).toEqual([
        { detail: expect.stringContaining('NOT-A-SKU'), pointer: '/items/1/sku' },
      ]);
    });

    it("2. each quantity must meet the product's minimum", async () => {
      const partner = await h.partner();
      const reply = await h.placeOrder(partner, { items: [{ sku: 'STICKER-SHEET', quantity: 9 }] });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors).toEqual([
        { detail: expect.stringContaining('10'), pointer: '/items/0/quantity' },
      ]);
      expect(
        (await h.placeOrder(partner, { items: [{ sku: 'STICKER-SHEET', quantity: 10 }] })).status,
      ).toBe(201);
    });

    it('3. the address must be in the US', async () => {
      const partner = await h.partner();
      const address = { ...(orderBody().shipping_address as object), country: 'CA' };
      const reply = await h.placeOrder(partner, { shipping_address: address });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors).toEqual([
        { detail: expect.any(String), pointer: '/shipping_address/country' },
      ]);
    });

    it('4. freight-shipped products are refused', async () => {
      const partner = await h.partner();
      const reply = await h.placeOrder(partner, {
        items: [{ sku: 'CANVAS-XL-FRAMED', quantity: 1 }],
      });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors).toEqual([
        { detail: expect.stringContaining('freight'), pointer: '/items/0/sku' },
      ]);
    });

    it('5a. the order must not exceed the maximum order value; the message names the limit', async () => {
      const partner = await h.partner({ limits: { max_order_value: 3000 } });
      expect(
        (await h.placeOrder(partner, { items: [{ sku: 'HOODIE-GRY-L', quantity: 1 }] })).status,
      ).toBe(422);
      const problem = expectProblemShape(
        await h.placeOrder(partner, { items: [{ sku: 'HOODIE-GRY-L', quantity: 1 }] }),
        'validation_failed',
        422,
      );
      expect(problem.detail).toContain('max_order_value');
      // Exactly the maximum is allowed.
      expect(
        (await h.placeOrder(partner, { items: [{ sku: 'TSHIRT-BLK-M', quantity: 2 }] })).status,
      ).toBe(201);
    });

    it('5b. at most max_orders_per_day orders per UTC day of the account clock, per mode, cancelled included', async () => {
      const partner = await h.partner({ limits: { max_orders_per_day: 2 }, live_access: true });
      await h.awayFromMidnight(partner.accountId);
      const first = await h.placeOrder(partner);
      await h.api('POST', `/orders/${first.body.id}/cancel`, { token: partner.token });
      expect((await h.placeOrder(partner)).status).toBe(201);
      const problem = expectProblemShape(await h.placeOrder(partner), 'validation_failed', 422);
      expect(problem.detail).toContain('max_orders_per_day');
      // The live mode has its own count.
      const live = await h.key(partner.accountId, { mode: 'live' });
      await h.control('POST', `/keys/${live.access_key_id}/end-probation`);
      const liveReply = await h.api('POST', '/orders', {
        token: await h.token(live),
        idempotencyKey: 'l1',
        body: orderBody() as never,
      });
      expect(liveReply.status).toBe(201);
      // The next UTC day of the account clock opens a new count.
      await h.advance(partner.accountId, 24 * 3600);
      expect((await h.placeOrder({ ...partner, token: await h.token(partner.key) })).status).toBe(
        201,
      );
    });
  });

  it('409 duplicate_external_id for a reused external_id; GET /orders/by-external-id finds the order (§4 rule 4)', async () => {
    const partner = await h.partner();
    const first = await h.placeOrder(partner, { external_id: 'shop-1001' });
    const second = await h.placeOrder(partner, { external_id: 'shop-1001' });
    expectProblemShape(second, 'duplicate_external_id', 409);
    const found = await h.api('GET', '/orders/by-external-id/shop-1001', { token: partner.token });
    expect(found.body.id).toBe(first.body.id);
    expectProblemShape(
      await h.api('GET', '/orders/by-external-id/nope', { token: partner.token }),
      'not_found',
      404,
    );
  });
});

describe('modes (§1)', () => {
  it('test keys see only test objects and live keys only live objects; external_id is per mode', async () => {
    const { id } = await h.account({ live_access: true });
    const testKey = await h.key(id);
    const liveKey = await h.key(id, { mode: 'live' });
    const testToken = await h.token(testKey);
    const liveToken = await h.token(liveKey);
    const body = orderBody({ external_id: 'same-in-both' });
    const testOrder = await h.api('POST', '/orders', {
      token: testToken,
      idempotencyKey: 'a',
      body: body as never,
    });
    const liveOrder = await h.api('POST', '/orders', {
      token: liveToken,
      idempotencyKey: 'a',
      body: body as never,
    });
    expect(testOrder.status).toBe(201);
    expect(liveOrder.status).toBe(201);
    expect(liveOrder.body.livemode).toBe(true);
    expectProblemShape(
      await h.api('GET', `/orders/${liveOrder.body.id}`, { token: testToken }),
      'not_found',
      404,
    );
    expectProblemShape(
      await h.api('GET', `/orders/${testOrder.body.id}`, { token: liveToken }),
      'not_found',
      404,
    );
    const testList = await h.api('GET', '/orders', { token: testToken });
    expect(testList.body.data.map((o: { id: string }) => o.id)).toEqual([testOrder.body.id]);
    const liveEvents = await h.api('GET', '/events', { token: liveToken });
    expect(liveEvents.body.data.every((e: { livemode: boolean }) => e.livemode)).toBe(true);
  });

  it('accounts are isolated: another account cannot read an order', async () => {
    const a = await h.partner();
    const b = await h.partner();
    const order = await h.placeOrder(a);
    expectProblemShape(
      await h.api('GET', `/orders/${order.body.id}`, { token: b.token }),
      'not_found',
      404,
    );
  });
});

describe('lists (contract §2)', () => {
  it('GET /orders pages newest first with limit and starting_after', async () => {
    const partner = await h.partner();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.placeOrder(partner)).body.id);
    const newestFirst = [...ids].reverse();
    const first = await h.api('GET', '/orders?limit=2', { token: partner.token });
    expect(first.body).toEqual({
      data: [
        expect.objectContaining({ id: newestFirst[0] }),
        expect.objectContaining({ id: newestFirst[1] }),
      ],
      has_more: true,
    });
    const rest = await h.api('GET', `/orders?limit=10&starting_after=${newestFirst[1]}`, {
      token: partner.token,
    });
    expect(rest.body.data.map((o: { id: string }) => o.id)).toEqual(newestFirst.slice(2));
    expect(rest.body.has_more).toBe(false);
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toHaveLength(5);
  });

  it('bad limit or starting_after are 422 on the parameter', async () => {
    const partner = await h.partner();
    for (const [query, pointer] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['starting_after=ord_nope', 'starting_after'],
      ['page=2', 'page'],
    ]) {
      const reply = await h.api('GET', `/orders?${query}`, { token: partner.token });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors[0].pointer).toBe(pointer);
    }
  });
});
