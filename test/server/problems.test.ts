import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
import { API, CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('every error is problem+json with all its fields (§2, §7)', () => {
  it('carries type, title, status, detail, instance (the path), code and request_id; Request-Id matches', async () => {
    const reply = await h.api('GET', '/orders?limit=5');
    const body = expectProblemShape(reply, 'unauthorized', 401);
    expect(body.instance).toBe(`${API}/orders`);
    expect(reply.headers['request-id']).toBe(body.request_id);
    expect(body).not.toHaveProperty('decline_code');
    expect(body).not.toHaveProperty('required_scope');
    expect(body).not.toHaveProperty('error');
  });

  it('unknown routes and methods are 404 not_found', async () => {
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/api/on-demand/v2/account'],
      ['GET', `${API}/nothing`],
      ['DELETE', `${API}/orders`],
      ['PUT', `${API}/account`],
    ] as const) {
      const reply = await app.inject({ method, url });
      expectProblemShape(
        { status: reply.statusCode, headers: reply.headers, body: reply.json(), raw: reply },
        'not_found',
        404,
      );
    }
  });

  it('a body over the limit is 413 with a code of the HTTP layer, never validation_failed (§7 pairs it with 422 only); odd encodings and types are 4xx problems', async () => {
    const partner = await h.partner();
    const send = (payload: string | Buffer, contentType: string) =>
      h.api('POST', '/orders', {
        token: partner.token,
        idempotencyKey: randomUUID(),
        payload,
        headers: { 'content-type': contentType },
      });
    expectProblemShape(
      await send('x'.repeat(300_000), 'application/json'),
      'content_too_large',
      413,
    );
    expectProblemShape(
      await send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'application/json'),
      'validation_failed',
      422,
    );
    expectProblemShape(
      await send('{}', 'application/json; charset=utf-16'),
      'unsupported_media_type',
      415,
    );
    expectProblemShape(await send('{}', 'not a media type'), 'unsupported_media_type', 415);
    expectProblemShape(
      await send(`${'['.repeat(50_000)}${']'.repeat(50_000)}`, 'application/json'),
      'validation_failed',
      422,
    );
    expectProblemShape(
      await send('\uFEFF{"external_id":1}', 'application/json'),
      'validation_failed',
      422,
    );
  });

  it('a Secret Key in an order body is refused with 422 and places nothing (§5.4)', async () => {
    const partner = await h.partner();
    const reply = await h.placeOrder(partner, { external_id: partner.key.secret_key });
    expect(expectProblemShape(reply, 'validation_failed', 422).detail).toMatch(/Basic/);
    const escaped = JSON.stringify(orderBody({ note: partner.key.secret_key })).replace(
      '_sk_',
      '\\u005fsk\\u005f',
    );
    const second = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: randomUUID(),
      payload: escaped,
      headers: { 'content-type': 'application/json' },
    });
    expect(expectProblemShape(second, 'validation_failed', 422).detail).toMatch(/Basic/);
    expect((await h.api('GET', '/orders', { token: partner.token })).body.data).toEqual([]);
  });

  it('a path that cannot be decoded is 404, never 500', async () => {
    const partner = await h.partner();
    expectProblemShape(
      await h.api('GET', '/orders/%E0%A4%A', { token: partner.token }),
      'not_found',
      404,
    );
    expectProblemShape(
      await h.api('GET', `/orders/${'x'.repeat(2000)}`, { token: partner.token }),
      'not_found',
      404,
    );
  });

  it('uses the docsUrl option in type URIs', async () => {
    const custom = await buildApp({ docsUrl: 'https://developer.partner.test/' });
    onTestFinished(() => custom.close());
    const reply = await custom.inject({ method: 'GET', url: `${API}/account` });
    expect(reply.json().type).toBe('https://developer.partner.test/errors#error-unauthorized');
  });
});

describe('errors before routing (real sockets)', () => {
  it('headers over the HTTP parser limit get a 431 problem of the HTTP layer, not a bare framework answer', async () => {
    const server = await startServer({ port: 0 });
    onTestFinished(() => server.close());
    const { port, hostname } = new URL(server.origin);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `GET ${API}/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
        );
      });
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toContain('Content-Type: application/problem+json');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({
      status: 431,
      code: 'request_header_fields_too_large',
      request_id: expect.any(String),
    });
    expect(raw).toContain(`Request-Id: ${body.request_id}\r\n`);
  });
});
