import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { emptyDir } from '../support/temp-dir.js';
import { API, CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

/** Every character of a credential percent-escaped, as a client library might send it. */
const escapeAll = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

describe('credentials in the URL (§5.6), whatever else the URL holds', () => {
  it('an escaped Secret Key or token beside a malformed escape is still 400 credentials_in_url', async () => {
    const partner = await h.partner();
    for (const credential of [partner.key.secret_key, partner.token]) {
      for (const path of [
        `/events?type=${escapeAll(credential)}%zz`,
        `/events?type=%zz${escapeAll(credential)}`,
        `/orders/by-external-id/${escapeAll(credential)}%zz`,
      ]) {
        const reply = await h.api('GET', path, { token: partner.token });
        expectProblemShape(reply, 'credentials_in_url', 400);
      }
    }
    const token = await h.api('POST', `/oauth/token?x=%zz${escapeAll(partner.key.secret_key)}`, {
      payload: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(400);
    expect(token.body.code).toBe('credentials_in_url');
  });
});

describe('a Secret Key in the body of a GET (§5.4: a body holding a Secret Key is refused)', () => {
  it('is refused with 422, on every method; an innocent GET body is ignored', async () => {
    const partner = await h.partner();
    for (const path of ['/account', '/orders']) {
      const refused = await h.api('GET', path, {
        token: partner.token,
        payload: JSON.stringify({ secret: partner.key.secret_key }),
        headers: { 'content-type': 'application/json' },
      });
      const body = expectProblemShape(refused, 'validation_failed', 422);
      expect(JSON.stringify(body)).not.toContain(partner.key.secret_key);
    }
    const innocent = await h.api('GET', '/account', {
      token: partner.token,
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(innocent.status).toBe(200);
  });
});

describe('order fields that could not come back as sent', () => {
  it('an external_id with an unpaired surrogate, or a dot segment, is 422 on /external_id', async () => {
    const partner = await h.partner();
    for (const externalId of ['\ud800', `ok-\udc00-id`, '.', '..']) {
      const reply = await h.placeOrder(partner, { external_id: externalId });
      const body = expectProblemShape(reply, 'validation_failed', 422);
      expect(body.errors).toContainEqual(expect.objectContaining({ pointer: '/external_id' }));
    }
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await h.placeOrder(partner, { external_id: `emoji-\u{1F600}-${randomUUID()}` });
    expect(emoji.status).toBe(201);
  });
});

describe('repeated and coded requests (§4 POST /orders)', () => {
  it('two Idempotency-Key headers are 400 idempotency_key_required and place nothing', async () => {
    const partner = await h.partner();
    const body = orderBody();
    // A real socket: inject would fold the two headers into one before the server saw them.
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${origin}${API}/orders`, { method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.setHeader('authorization', `Bearer ${partner.token}`);
      req.setHeader('content-type', 'application/json');
      req.setHeader('idempotency-key', ['first', 'second']);
      req.end(JSON.stringify(body));
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).code).toBe('idempotency_key_required');
    const found = await h.api('GET', `/orders/by-external-id/${body.external_id}`, {
      token: partner.token,
    });
    expect(found.status).toBe(404);
  });

  it('a body with a Content-Encoding is 415 unsupported_media_type, coded or not', async () => {
    const partner = await h.partner();
    const json = JSON.stringify(orderBody());
    for (const payload of [json, gzipSync(json)]) {
      const reply = await h.api('POST', '/orders', {
        token: partner.token,
        idempotencyKey: randomUUID(),
        payload,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expectProblemShape(reply, 'unsupported_media_type', 415);
    }
  });

  it("413 is the HTTP layer's content_too_large, not validation_failed (§7 pairs that with 422 only)", async () => {
    const partner = await h.partner();
    const reply = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: randomUUID(),
      payload: 'x'.repeat(300_000),
      headers: { 'content-type': 'application/json' },
    });
    const body = expectProblemShape(reply, 'content_too_large', 413);
    expect(body.detail).toContain('bytes');
  });
});

describe('GET /events query (contract §2: bad query parameters are 422)', () => {
  it('an unknown event type is 422 on the parameter, a known one filters', async () => {
    const partner = await h.partner({}, { scopes: ['webhooks:manage', 'orders:write'] });
    const bad = await h.api('GET', '/events?type=order.exploded', { token: partner.token });
    const body = expectProblemShape(bad, 'validation_failed', 422);
    expect(body.errors).toEqual([expect.objectContaining({ pointer: 'type' })]);
    const good = await h.api('GET', '/events?type=order.created', { token: partner.token });
    expect(good.status).toBe(200);
  });
});

describe('internal_error names the remedy that fits the request (§7)', () => {
  it('only POST /orders is told to retry with the same Idempotency-Key', async () => {
    const partner = await h.partner();
    await h.fault(partner.accountId, { method: 'GET', path: '/orders', status: 500 });
    const read = await h.api('GET', '/orders', { token: partner.token });
    expect(expectProblemShape(read, 'internal_error', 500).detail).not.toMatch(/Idempotency-Key/);
    await h.fault(partner.accountId, { method: 'POST', path: '/orders', status: 500 });
    const order = await h.placeOrder(partner);
    expect(expectProblemShape(order, 'internal_error', 500).detail).toMatch(/Idempotency-Key/);
  });
});

describe('an old token keeps answering token_expired (§5.2), across housekeeping and a restart', () => {
  it('8 days after issue, housekeeping run and the server restarted: still token_expired', async () => {
    const dir = emptyDir('reference-old-token-');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'reference.db');
    const first = await buildApp({ controlToken: CONTROL_TOKEN, db });
    let open = true;
    onTestFinished(async () => {
      if (open) await first.close();
    });
    const h1 = harness(first);
    const partner = await h1.partner();
    await h1.advance(partner.accountId, 8 * 86_400);
    await first.ctx.store.housekeeping.run(Date.now());
    await first.close();
    open = false;

    const second = await buildApp({ controlToken: CONTROL_TOKEN, db });
    onTestFinished(() => second.close());
    const reply = await harness(second).api('GET', '/account', { token: partner.token });
    expectProblemShape(reply, 'token_expired', 401);
  });
});
