import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import type { AppOptions } from '../../server/options.js';
import {
  API,
  basicAuth,
  CONTROL_TOKEN,
  harness,
  orderBody,
  withWrongSecret,
} from './support/harness.js';
import { roundRobin } from './support/round-robin.js';

/**
 * The sandbox among its neighbours. Every client here is on
 * loopback; 127.0.0.0/8 is all loopback on Linux, so a client that binds
 * 127.0.0.2 or 127.0.0.3 is another address as far as the server can tell.
 */

async function listening(opts: AppOptions): Promise<{ app: FastifyInstance; origin: string }> {
  const app = await buildApp({ controlToken: CONTROL_TOKEN, ...opts });
  onTestFinished(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** An HTTP client whose connections leave from `localAddress`. */
function clientFrom(localAddress: string): Agent {
  const agent = new Agent({ localAddress });
  onTestFinished(() => agent.close());
  return agent;
}

async function tokenStatus(
  origin: string,
  from: Agent,
  key: { access_key_id: string; secret_key: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; code: unknown }> {
  const res = await request(`${origin}${API}/oauth/token`, {
    method: 'POST',
    dispatcher: from,
    headers: {
      authorization: basicAuth(key.access_key_id, key.secret_key),
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.body.json()) as { code?: unknown };
  return { status: res.statusCode, code: body.code };
}

describe('behind a trusted proxy, the client address is the one X-Forwarded-For names', () => {
  it('an IP allowlist through the balancer: the partner in, another address out, a spoofed header ignored', async () => {
    const { app, origin } = await listening({ trustProxy: ['127.0.0.1'] });
    const balancer = await roundRobin([origin], { forwardedFor: true });
    onTestFinished(() => balancer.close());
    const h = harness(app);
    const partner = { key: await h.key((await h.account()).id, { ip_allowlist: ['127.0.0.2'] }) };
    const partnerClient = clientFrom('127.0.0.2');
    const stranger = clientFrom('127.0.0.3');

    expect((await tokenStatus(balancer.origin, partnerClient, partner.key)).status).toBe(200);
    expect(await tokenStatus(balancer.origin, stranger, partner.key)).toEqual({
      status: 403,
      code: 'ip_not_allowed',
    });
    // Straight to the instance, from an address that is no trusted proxy: its header is not believed.
    expect(
      await tokenStatus(origin, stranger, partner.key, { 'x-forwarded-for': '127.0.0.2' }),
    ).toEqual({ status: 403, code: 'ip_not_allowed' });
    // The stranger cannot prepend the partner's address either: the balancer appends the real one.
    expect(
      await tokenStatus(balancer.origin, stranger, partner.key, { 'x-forwarded-for': '127.0.0.2' }),
    ).toEqual({ status: 403, code: 'ip_not_allowed' });
  });

  it('an X-Forwarded-For entry that is no IP address never becomes the client address', async () => {
    const { origin } = await listening({ trustProxy: ['127.0.0.1'] });
    const whoami = async (forwarded: string) => {
      const res = await request(`${origin}/__control/whoami`, {
        headers: { 'x-control-token': CONTROL_TOKEN, 'x-forwarded-for': forwarded },
        dispatcher: clientFrom('127.0.0.1'),
      });
      return ((await res.body.json()) as { ip: string }).ip;
    };
    // From the trusted proxy: a garbage entry says nothing of the client, the proxy's own address stands.
    expect(await whoami('garbage')).toBe('127.0.0.1');
    expect(await whoami('127.0.0.9, garbage')).toBe('127.0.0.1');
    expect(await whoami('1.2.3.4:80')).toBe('127.0.0.1');
    // A valid entry is believed, as before.
    expect(await whoami('127.0.0.9')).toBe('127.0.0.9');
  });

  it('without --trust-proxy every client behind the balancer has the balancer address', async () => {
    const { app, origin } = await listening({});
    const balancer = await roundRobin([origin], { forwardedFor: true });
    onTestFinished(() => balancer.close());
    const h = harness(app);
    const partner = { key: await h.key((await h.account()).id, { ip_allowlist: ['127.0.0.2'] }) };
    expect(await tokenStatus(balancer.origin, clientFrom('127.0.0.2'), partner.key)).toEqual({
      status: 403,
      code: 'ip_not_allowed',
    });
  });

  it('failed token requests are counted per forwarded address: the attacker is refused, the owner is not', async () => {
    const { app, origin } = await listening({ trustProxy: ['127.0.0.1'] });
    const balancer = await roundRobin([origin], { forwardedFor: true });
    onTestFinished(() => balancer.close());
    const h = harness(app);
    const partner = await h.partner();
    await h.startOfWindow(partner.accountId);
    const attacker = clientFrom('127.0.0.3');
    const wrong = withWrongSecret(partner.key);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await tokenStatus(balancer.origin, attacker, wrong)).status);
    expect(statuses).toEqual([...Array<number>(20).fill(401), 429]);
    const owner = clientFrom('127.0.0.2');
    expect((await tokenStatus(balancer.origin, owner, wrong)).status).toBe(401);
    expect((await tokenStatus(balancer.origin, owner, partner.key)).status).toBe(200);
  });
});

describe('one address holds at most its share of the connections', () => {
  it('a flood of idle connections from one address leaves the other clients served', async () => {
    const { origin } = await listening({
      limits: { maxConnections: 20, maxConnectionsPerAddress: 5 },
    });
    const { port } = new URL(origin);
    const flood: Socket[] = [];
    let closed = 0;
    const allClosed = new Promise<void>((resolve) => {
      for (let i = 0; i < 30; i++) {
        const socket = connect({
          host: '127.0.0.1',
          port: Number(port),
          localAddress: '127.0.0.2',
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          closed += 1;
          if (closed === 25) resolve();
        });
        flood.push(socket);
      }
    });
    onTestFinished(() => {
      for (const socket of flood) socket.destroy();
    });
    // 30 connections sent, more than the whole cap: all but the address's 5 are closed by the server.
    await allClosed;
    expect(flood.filter((socket) => !socket.destroyed)).toHaveLength(5);
    // Everybody else is still served.
    for (const from of ['127.0.0.1', '127.0.0.3']) {
      const res = await request(`${origin}/healthz`, { dispatcher: clientFrom(from) });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }
  });
});

/** Writes `text` on a new connection (then half-closes it when asked) and reads until the server closes. */
async function rawExchange(origin: string, text: string, halfClose: boolean): Promise<string> {
  const { port } = new URL(origin);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  onTestFinished(() => {
    socket.destroy();
  });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  if (halfClose) socket.end(text);
  else socket.write(text);
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('utf8');
}

describe('the end of a connection', () => {
  it('a client that half-closes after a complete POST /orders still gets its 201, and the order is there', async () => {
    const { app, origin } = await listening({});
    const h = harness(app);
    const partner = await h.partner();
    const body = JSON.stringify(orderBody({ external_id: 'half-closed' }));
    const answer = await rawExchange(
      origin,
      `POST ${API}/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${partner.token}\r\nIdempotency-Key: half-1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      true,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    const stored = await h.api('GET', '/orders/by-external-id/half-closed', {
      token: partner.token,
    });
    expect(stored.status).toBe(200);
  });

  it('requests pipelined past the per-connection limit: the last allowed closes the connection, no bare 503', async () => {
    const { origin } = await listening({ limits: { maxRequestsPerSocket: 3 } });
    const one = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await rawExchange(origin, one.repeat(6), false);
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['200', '200', '200']);
    const lastHead = answer.slice(answer.lastIndexOf('HTTP/1.1 '));
    expect(lastHead).toMatch(/\r\nconnection: close\r\n/i);
  });
});
