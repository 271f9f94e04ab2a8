import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
import { API, CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);
// The race runs over real sockets, against a listening server of its own.
const server = await startServer({ port: 0, controlToken: CONTROL_TOKEN });
afterAll(() => server.close());

describe('Idempotency-Key (§4)', () => {
  it('is required: 400 idempotency_key_required without it, and no order is placed', async () => {
    const partner = await h.partner();
    for (const headers of [{}, { 'idempotency-key': '' }, { 'idempotency-key': '   ' }]) {
      const reply = await h.api('POST', '/orders', {
        token: partner.token,
        body: orderBody() as never,
        headers,
      });
      expectProblemShape(reply, 'idempotency_key_required', 400);
    }
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toEqual([]);
  });

  it('takes up to 255 characters; 256 is 400 idempotency_key_required naming the length (contract §2)', async () => {
    const partner = await h.partner();
    expect((await h.placeOrder(partner, {}, 'k'.repeat(255))).status).toBe(201);
    const reply = await h.placeOrder(partner, {}, 'k'.repeat(256));
    expect(expectProblemShape(reply, 'idempotency_key_required', 400).detail).toContain('256');
  });

  it('replays the same request with 200, Idempotent-Replayed: true and the same order (rule 2)', async () => {
    const partner = await h.partner();
    const body = orderBody();
    const first = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'replay-1',
      body: body as never,
    });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same JSON up to key order and white space is the same request (contract §2).
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
    const again = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'replay-1',
      payload: reordered,
      headers: { 'content-type': 'application/json' },
    });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toHaveLength(1);
    const events = await h.api('GET', '/events', { token: partner.token });
    expect(events.body.data).toHaveLength(1);
  });

  it('the same key with a different body is 409 idempotency_conflict (rule 3)', async () => {
    const partner = await h.partner();
    await h.placeOrder(partner, { external_id: 'a' }, 'conflict-1');
    expectProblemShape(
      await h.placeOrder(partner, { external_id: 'b' }, 'conflict-1'),
      'idempotency_conflict',
      409,
    );
  });

  it("keys are scoped to the account and mode: another account's same key is a new request", async () => {
    const a = await h.partner();
    const b = await h.partner();
    const body = orderBody();
    const first = await h.api('POST', '/orders', {
      token: a.token,
      idempotencyKey: 'shared',
      body: body as never,
    });
    const second = await h.api('POST', '/orders', {
      token: b.token,
      idempotencyKey: 'shared',
      body: body as never,
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('records are kept 24 hours on the account clock, then the key is new again', async () => {
    const partner = await h.partner();
    const body = orderBody();
    const first = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'old',
      body: body as never,
    });
    await h.advance(partner.accountId, 23 * 3600 + 3599);
    const token = await h.token(partner.key);
    const replay = await h.api('POST', '/orders', {
      token,
      idempotencyKey: 'old',
      body: body as never,
    });
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
    await h.advance(partner.accountId, 2);
    // Past retention the key is processed afresh: the external_id is then the guard (rule 4).
    const late = await h.api('POST', '/orders', {
      token,
      idempotencyKey: 'old',
      body: body as never,
    });
    expectProblemShape(late, 'duplicate_external_id', 409);
  });

  it('replays even when the account could no longer place that order (limits, suspension)', async () => {
    const partner = await h.partner({ limits: { max_orders_per_day: 1 } });
    const body = orderBody();
    const first = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'limit',
      body: body as never,
    });
    await h.patchAccount(partner.accountId, { suspended: true });
    const again = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'limit',
      body: body as never,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });
});

describe('retry after 500 (§4 rule 6, contract §3 faults)', () => {
  it('before_commit: nothing is stored; the retry with the same key places the order once', async () => {
    const partner = await h.partner();
    await h.fault(partner.accountId, {
      method: 'POST',
      path: '/orders',
      status: 500,
      when: 'before_commit',
      times: 1,
    });
    const body = orderBody();
    const failed = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'f1',
      body: body as never,
    });
    expectProblemShape(failed, 'internal_error', 500);
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toEqual([]);
    const retry = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'f1',
      body: body as never,
    });
    expect(retry.status).toBe(201);
  });

  it('after_commit: the order is stored; the retry replays it and places no second', async () => {
    const partner = await h.partner();
    await h.fault(partner.accountId, {
      method: 'POST',
      path: `${API}/orders`,
      status: 500,
      when: 'after_commit',
      times: 1,
    });
    const body = orderBody();
    const failed = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'f2',
      body: body as never,
    });
    expectProblemShape(failed, 'internal_error', 500);
    const retry = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'f2',
      body: body as never,
    });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const list = await h.api('GET', '/orders', { token: partner.token });
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([retry.body.id]);
  });

  it('a request refused before the operation does not use the fault up', async () => {
    const partner = await h.partner();
    await h.fault(partner.accountId, {
      method: 'POST',
      path: '/orders',
      when: 'before_commit',
      times: 1,
    });
    expect((await h.placeOrder(partner, { external_id: '' })).status).toBe(422);
    expect(
      (
        await h.api('POST', '/orders', {
          token: 'odp_at_000000000000000000000000',
          body: orderBody() as never,
        })
      ).status,
    ).toBe(401);
    expect((await h.placeOrder(partner)).status).toBe(500);
    expect((await h.placeOrder(partner)).status).toBe(201);
  });
});

describe('racing identical requests', () => {
  it('many identical POST /orders with one key over real sockets place exactly one order', async () => {
    const control = async (path: string, body: unknown) => {
      const res = await request(`${server.origin}/__control${path}`, {
        method: 'POST',
        headers: { 'x-control-token': CONTROL_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.body.json()) as Record<string, string>;
    };
    const account = await control('/accounts', { rate_limits: { write: 1000 } });
    const key = await control(`/accounts/${account.id}/keys`, {});
    const tokenRes = await request(`${server.origin}${API}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${key.access_key_id}:${key.secret_key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token } = (await tokenRes.body.json()) as { access_token: string };

    const body = JSON.stringify(orderBody());
    const idempotencyKey = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const res = await request(`${server.origin}${API}/orders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${access_token}`,
            'idempotency-key': idempotencyKey,
            'content-type': 'application/json',
          },
          body,
        });
        return { status: res.statusCode, body: (await res.body.json()) as { id: string } };
      }),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(39);
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    const list = await request(`${server.origin}${API}/orders`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(((await list.body.json()) as { data: unknown[] }).data).toHaveLength(1);
  });
});
