import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { emptyDir } from '../support/temp-dir.js';
import { API, CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';
import { describePostgres, freshDatabase } from './support/postgres.js';
import { roundRobin } from './support/round-robin.js';
import { type Spawned, spawnServer, stop } from './support/spawn-server.js';

/**
 * Several reference instances on one PostgreSQL database are one
 * server. Instance A runs in this process, instance B in a child process (so
 * that it can be killed); both on a fresh database of TEST_DATABASE_URL.
 */
describePostgres('two reference instances on one PostgreSQL database', (serverUrl) => {
  let drop: (() => Promise<void>) | undefined;
  let appA: FastifyInstance;
  let originA = '';
  let b: Spawned | undefined;
  let originB = '';
  const dir = emptyDir('reference-pg-');
  const agent = new Agent({ connections: 64 });

  beforeAll(async () => {
    const database = await freshDatabase(serverUrl);
    drop = database.drop;
    appA = await buildApp({ databaseUrl: database.url, controlToken: CONTROL_TOKEN });
    await appA.listen({ port: 0, host: '127.0.0.1' });
    originA = `http://127.0.0.1:${(appA.server.address() as AddressInfo).port}`;
    const tokenFile = join(dir, 'control-token');
    writeFileSync(tokenFile, CONTROL_TOKEN, { mode: 0o600 });
    b = await spawnServer(['--port', '0', '--control-token-file', tokenFile], {
      DATABASE_URL: database.url,
    });
    originB = b.origin;
  });
  afterAll(async () => {
    if (b) await stop(b.child, 'SIGKILL');
    await appA?.close();
    await agent.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const h = () => harness(appA);

  async function call(origin: string, method: string, path: string, headers = {}, body?: unknown) {
    const res = await request(`${origin}${path}`, {
      method: method as 'GET',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      dispatcher: agent,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, read field by field.
      body: (text === '' ? undefined : JSON.parse(text)) as any,
    };
  }

  const generous = {
    rate_limits: { read: 100_000, write: 100_000, token: 100_000 },
    limits: { max_orders_per_day: 100_000, max_order_value: 100_000_000 },
  };

  async function allOrders(origin: string, token: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query = `?limit=100${cursor === undefined ? '' : `&starting_after=${cursor}`}`;
      const page = await call(origin, 'GET', `${API}/orders${query}`, {
        authorization: `Bearer ${token}`,
      });
      const data = page.body.data as Array<{ id: string }>;
      ids.push(...data.map((order) => order.id));
      if (!page.body.has_more) return ids;
      cursor = data.at(-1)?.id;
    }
  }

  it('a token made on one instance works on the other, and a roll on one stops it on both', async () => {
    const partner = await h().partner();
    const bearer = { authorization: `Bearer ${partner.token}` };
    expect((await call(originB, 'GET', `${API}/account`, bearer)).status).toBe(200);
    const rolled = await call(
      originB,
      'POST',
      `/__control/keys/${partner.key.access_key_id}/roll`,
      { 'x-control-token': CONTROL_TOKEN },
    );
    expect(rolled.status).toBe(200);
    for (const origin of [originA, originB]) {
      expect((await call(origin, 'GET', `${API}/account`, bearer)).status).toBe(401);
    }
  });

  it('identical POST /orders sent to both at once: one order per Idempotency-Key, one per external_id', async () => {
    const partner = await h().partner(generous);
    const bearer = { authorization: `Bearer ${partner.token}` };
    const body = orderBody();
    const sameKey = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(
          i % 2 === 0 ? originA : originB,
          'POST',
          `${API}/orders`,
          { ...bearer, 'idempotency-key': 'race-1' },
          body,
        ),
      ),
    );
    expect(sameKey.map((r) => r.status).sort((x, y) => x - y)).toEqual([
      ...Array(19).fill(200),
      201,
    ]);
    expect(new Set(sameKey.map((r) => r.body.id)).size).toBe(1);

    // Different keys, one external_id: the first places it, every other is a duplicate (§4 rule 4).
    const externalId = `race-ext-${randomUUID()}`;
    const sameExternal = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(
          i % 2 === 0 ? originA : originB,
          'POST',
          `${API}/orders`,
          { ...bearer, 'idempotency-key': `race-2-${i}` },
          orderBody({ external_id: externalId }),
        ),
      ),
    );
    expect(sameExternal.map((r) => r.status).sort((x, y) => x - y)).toEqual([
      201,
      ...Array(19).fill(409),
    ]);
    for (const reply of sameExternal.filter((r) => r.status === 409))
      expect(reply.body.code).toBe('duplicate_external_id');
    expect((await allOrders(originB, partner.token)).length).toBe(2);
  });

  it("one key's requests spread over both instances: the rate limit holds for the sum", async () => {
    const partner = await h().partner({ rate_limits: { read: 10, write: 10, token: 100 } });
    await h().startOfWindow(partner.accountId);
    const bearer = { authorization: `Bearer ${partner.token}` };
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(i % 2 === 0 ? originA : originB, 'GET', `${API}/account`, bearer),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(20);
  });

  it('clock advances and settings changes sent to both at once all count (one account clock)', async () => {
    const partner = await h().partner();
    const control = { 'x-control-token': CONTROL_TOKEN };
    const before = Date.now();
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        call(
          i % 2 === 0 ? originA : originB,
          'POST',
          `/__control/accounts/${partner.accountId}/clock`,
          control,
          { advance_seconds: 60 },
        ),
      ),
      call(originA, 'PATCH', `/__control/accounts/${partner.accountId}`, control, {
        limits: { max_orders_per_day: 77 },
      }),
      call(originB, 'PATCH', `/__control/accounts/${partner.accountId}`, control, {
        rate_limits: { read: 55 },
      }),
    ]);
    const view = await call(originB, 'GET', `/__control/accounts/${partner.accountId}`, control);
    const advancedMs = Date.parse(view.body.now) - before;
    // Ten minutes ahead of real time (plus the few seconds the requests took), not less.
    expect(advancedMs).toBeGreaterThanOrEqual(600_000);
    expect(advancedMs).toBeLessThan(630_000);
    expect(view.body.limits.max_orders_per_day).toBe(77);
    expect(view.body.rate_limits.read).toBe(55);
  });

  it('a fault set through one instance fires on the other, once', async () => {
    const partner = await h().partner();
    await h().fault(partner.accountId, { method: 'GET', path: '/orders', times: 1 });
    const bearer = { authorization: `Bearer ${partner.token}` };
    expect((await call(originB, 'GET', `${API}/orders`, bearer)).status).toBe(500);
    expect((await call(originA, 'GET', `${API}/orders`, bearer)).status).toBe(200);
    expect((await call(originB, 'GET', `${API}/orders`, bearer)).status).toBe(200);
  });

  it('one instance killed mid-stream behind a balancer: no acknowledged order is lost', async () => {
    const partner = await h().partner(generous);
    const bearer = { authorization: `Bearer ${partner.token}` };
    const balancer = await roundRobin([originA, originB]);
    try {
      const bodies = new Map<string, unknown>();
      const acknowledged = new Map<string, string>();
      let next = 0;
      let killed = false;
      let afterKill = 0;
      const sender = async () => {
        // Keep sending for a while after the kill: half of those reach the dead instance.
        while (afterKill < 40) {
          const key = `kill-${next++}`;
          const body = orderBody({ external_id: key });
          bodies.set(key, body);
          if (killed) afterKill += 1;
          const reply = await call(
            balancer.origin,
            'POST',
            `${API}/orders`,
            { ...bearer, 'idempotency-key': key },
            body,
          ).catch(() => ({ status: 0, body: undefined }));
          if (reply.status === 201) acknowledged.set(key, reply.body.id as string);
          // After the kill, the dead instance's share fails: 502 from the balancer, or a dropped answer.
          else if (!killed || (reply.status !== 502 && reply.status !== 0))
            throw new Error(`unexpected ${reply.status} ${JSON.stringify(reply.body)}`);
          if (acknowledged.size >= 100 && !killed && b) {
            killed = true;
            await stop(b.child, 'SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, sender));
      expect(killed).toBe(true);

      // Every key again on the survivor: acknowledged ones replay, the rest are placed once.
      for (const [key, body] of bodies) {
        const reply = await call(
          originA,
          'POST',
          `${API}/orders`,
          { ...bearer, 'idempotency-key': key },
          body,
        );
        const id = acknowledged.get(key);
        if (id !== undefined)
          expect({ key, status: reply.status, id: reply.body.id }).toEqual({
            key,
            status: 200,
            id,
          });
        else expect([200, 201]).toContain(reply.status);
      }
      const ids = await allOrders(originA, partner.token);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(bodies.size);
      for (const id of acknowledged.values()) expect(ids).toContain(id);
    } finally {
      await balancer.close();
    }
  });
});

describePostgres('a PostgreSQL outage', (serverUrl) => {
  let drop: (() => Promise<void>) | undefined;
  let app: FastifyInstance;
  // A TCP relay between the instance and PostgreSQL, cut to make the database vanish.
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const database = new URL(serverUrl);
    const upstream = connect(Number(database.port || 5432), database.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  let relayPort = 0;

  beforeAll(async () => {
    const fresh = await freshDatabase(serverUrl);
    drop = fresh.drop;
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    relayPort = (relay.address() as AddressInfo).port;
    const url = new URL(fresh.url);
    url.hostname = '127.0.0.1';
    url.port = String(relayPort);
    app = await buildApp({ databaseUrl: url.toString(), controlToken: CONTROL_TOKEN });
  });
  afterAll(async () => {
    await app?.close();
    relay.close();
    for (const socket of sockets) socket.destroy();
    await drop?.();
  });

  it('answers 503 problem+json while the database is away, stores nothing, and recovers', async () => {
    const h = harness(app);
    const partner = await h.partner();
    const closed = new Promise<void>((resolve) => relay.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;

    expectProblemShape(
      await h.api('GET', '/account', { token: partner.token }),
      'api_unavailable',
      503,
    );
    const lost = await h.placeOrder(partner, { external_id: 'during-outage' }, 'outage-1');
    expectProblemShape(lost, 'api_unavailable', 503);
    // The balancer's readiness probe sees it too; liveness does not (restarting would not help).
    const unready = await app.inject({ method: 'GET', url: '/readyz' });
    expect([unready.statusCode, unready.json().code]).toEqual([503, 'api_unavailable']);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
    expect((await h.api('GET', '/account', { token: partner.token })).status).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ready',
      engine: 'postgres',
    });
    // The refused order was not stored: its key places it now.
    expect(
      (await h.api('GET', '/orders/by-external-id/during-outage', { token: partner.token })).status,
    ).toBe(404);
    expect((await h.placeOrder(partner, { external_id: 'during-outage' }, 'outage-1')).status).toBe(
      201,
    );
  });
});
