import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { parseSituations } from '../../lib/sandbox/plan.js';
import { redactedExchanges } from '../../lib/sandbox/redacted.js';
import { type Sandbox, startSandbox } from '../../lib/sandbox/start.js';

/**
 * The situation-playing layer in front of the bundled reference, driven by
 * hand with fetch: each situation is played on the first chance and the
 * sandbox otherwise answers as the reference does.
 */
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(situations: string, retryAfterSeconds = 1): Promise<Client> {
  sandbox = await startSandbox({
    timeoutMs: 10_000,
    choice: parseSituations(situations),
    retryAfterSeconds,
  });
  return new Client(sandbox);
}

class Client {
  token = '';
  constructor(readonly sandbox: Sandbox) {}

  async getToken(): Promise<Response> {
    const { accessKeyId, secretKey } = this.sandbox.key;
    const res = await fetch(`${this.sandbox.origin}/api/on-demand/v1/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${accessKeyId}:${secretKey}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.ok) this.token = ((await res.clone().json()) as { access_token: string }).access_token;
    return res;
  }

  call(method: string, path: string, body?: unknown, key?: string): Promise<Response> {
    return fetch(`${this.sandbox.origin}/api/on-demand/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
}

const order = (externalId = `ext-${randomUUID()}`) => ({
  external_id: externalId,
  items: [{ sku: 'MUG-WHT-11OZ', quantity: 1 }],
  shipping_address: {
    name: 'A. Partner',
    line1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  },
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe('the situation-playing layer', () => {
  test('a 429 is played on the first read, shaped as the sandbox’s own, and the retry passes', async () => {
    const client = await start('429-read');
    expect((await client.getToken()).status).toBe(200);
    const first = await client.call('GET', '/account');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    const problem = await json(first);
    expect(problem).toMatchObject({
      type: 'https://docs.example.com/errors#error-rate-limited',
      status: 429,
      code: 'rate_limited',
      instance: '/api/on-demand/v1/account',
    });
    expect((await client.call('GET', '/account')).status).toBe(200);
    const [, played, again] = client.sandbox.layer.exchanges;
    expect(played?.play).toEqual({ situation: '429-read', reworded: false });
    expect(again?.play).toBeUndefined();
    expect(client.sandbox.director.plays[0]).toMatchObject({ state: 'played', exchange: 2 });
  });

  test('500 after the commit: the order is stored, the same key replays it, one order in all', async () => {
    const client = await start('500-after');
    await client.getToken();
    const body = order();
    const failed = await client.call('POST', '/orders', body, 'key-1');
    expect(failed.status).toBe(500);
    expect((await json(failed)).code).toBe('internal_error');
    const retry = await client.call('POST', '/orders', body, 'key-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const list = await json(await client.call('GET', '/orders'));
    expect((list.data as unknown[]).length).toBe(1);
  });

  test('card_declined, then a valid card; the declined key keeps its 402', async () => {
    const client = await start('card-declined');
    await client.getToken();
    const body = order();
    const declined = await client.call('POST', '/orders', body, 'key-1');
    expect(declined.status).toBe(402);
    expect((await json(declined)).code).toBe('card_declined');
    // The reference would process the same key afresh (contract §2); the sandbox keeps its answer.
    const same = await client.call('POST', '/orders', body, 'key-1');
    expect(same.status).toBe(402);
    expect(client.sandbox.layer.exchanges.at(-1)?.notes.join(' ')).toMatch(/same 402 again/);
    expect((await client.call('POST', '/orders', body, 'key-2')).status).toBe(201);
  });

  test('a duplicate external_id: the sandbox places the order first, the client fetches it', async () => {
    const client = await start('duplicate-external-id');
    await client.getToken();
    const body = order();
    const duplicate = await client.call('POST', '/orders', body, 'key-1');
    expect(duplicate.status).toBe(409);
    expect((await json(duplicate)).code).toBe('duplicate_external_id');
    const fetched = await client.call('GET', `/orders/by-external-id/${body.external_id}`);
    expect(fetched.status).toBe(200);
    expect((await json(fetched)).external_id).toBe(body.external_id);
  });

  test('its token expires on the account clock once it has been used', async () => {
    const client = await start('token-expired');
    await client.getToken();
    expect((await client.call('GET', '/account')).status).toBe(200);
    const expired = await client.call('GET', '/account');
    expect(expired.status).toBe(401);
    expect((await json(expired)).code).toBe('token_expired');
    await client.getToken();
    expect((await client.call('GET', '/account')).status).toBe(200);
  });

  test('read_only: writes get 503 with Retry-After, reads still work', async () => {
    const client = await start('read-only', 60);
    await client.getToken();
    const paused = await client.call('POST', '/orders', order(), 'key-1');
    expect(paused.status).toBe(503);
    expect(paused.headers.get('retry-after')).toBe('60');
    expect((await json(paused)).code).toBe('read_only');
    expect((await client.call('GET', '/account')).status).toBe(200);
  });

  test('reworded: titles and details change on every answer, codes and types stay; a first playing keeps its words', async () => {
    const client = await start('429-read,reworded');
    await client.getToken();
    const played = await json(await client.call('GET', '/account'));
    expect(played.title).toBe('Too many requests');
    // The next read, once the first playing is done: the same situation, reworded.
    const replay = await json(await client.call('GET', '/catalog/products'));
    expect(replay.code).toBe('rate_limited');
    expect(replay.title).not.toBe('Too many requests');
    const a = await json(await client.call('GET', '/orders/ord_nope'));
    const b = await json(await client.call('GET', '/orders/ord_nope'));
    for (const problem of [a, b]) {
      expect(problem.code).toBe('not_found');
      expect(problem.type).toBe('https://docs.example.com/errors#error-not-found');
      expect(problem.title).not.toBe('Not found');
    }
    expect(a.detail).not.toBe(b.detail);
    expect(a.title).not.toBe(b.title);
  });

  test('no Secret Key or token of the run reaches the exchanges a report holds', async () => {
    const client = await start('none');
    await client.getToken();
    await client.call('GET', `/account?oops=${client.token}`);
    await client.call('POST', '/quotes', { note: client.sandbox.key.secretKey });
    const text = JSON.stringify(
      redactedExchanges(client.sandbox.layer.exchanges, {
        keyPrefix: 'odp',
        controlToken: client.sandbox.controlToken,
        keys: client.sandbox.keys,
      }),
    );
    expect(text).not.toContain(client.sandbox.key.secretKey);
    expect(text).not.toContain(client.token);
    expect(text).toContain('[REDACTED');
  });
});

describe('another sandbox, through its control API (--target)', () => {
  test('grades against it like the bundled one, and revokes the keys it made at the end', async () => {
    const { startServer } = await import('../../server/start.js');
    const controlToken = randomUUID();
    const server = await startServer({ port: 0, controlToken, db: ':memory:' });
    try {
      const other = await startSandbox({
        target: server.origin,
        controlUrl: `${server.origin}/__control`,
        controlToken,
        timeoutMs: 10_000,
        choice: parseSituations('token-expired'),
        retryAfterSeconds: 1,
      });
      const client = new Client(other);
      await client.getToken();
      expect((await client.call('GET', '/account')).status).toBe(200);
      expect((await client.call('GET', '/account')).status).toBe(401);
      expect(other.embedded).toBe(false);
      expect(other.director.plays[0]?.state).toBe('played');
      await other.close();
      const after = await fetch(`${server.origin}/api/on-demand/v1/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${other.key.accessKeyId}:${other.key.secretKey}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      expect(after.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
