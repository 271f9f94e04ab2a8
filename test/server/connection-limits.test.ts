import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../server/options.js';
import { type RunningServer, startServer } from '../../server/start.js';

/** Tiny limits, so a slow request is closed in a fraction of a second. */
const LIMITS = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 500,
  idleTimeoutMs: 800,
  keepAliveTimeoutMs: 200,
  maxConnections: 3,
};
/**
 * A close sooner than the smallest default limit (keep-alive, 5 s) came from the configured
 * limit: these bound what tells the two apart, not how fast the machine is (a busy machine
 * still fires a 300 ms timer long before a 5 s one would have).
 */
const CLOSED_WITHIN_MS = Math.min(
  DEFAULT_LIMITS.headersTimeoutMs,
  DEFAULT_LIMITS.requestTimeoutMs,
  DEFAULT_LIMITS.keepAliveTimeoutMs,
);

const server: RunningServer = await startServer({ limits: LIMITS });
afterAll(() => server.close());
const { hostname, port } = new URL(server.origin);

interface Exchange {
  text: string;
  /** From the first byte written to the socket's close. */
  elapsedMs: number;
}

/** Writes `request` on a new connection, then waits for the server to close it. */
function exchange(request: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let started = 0;
    socket.on('connect', () => {
      started = performance.now();
      if (request !== '') socket.write(request);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset is the server closing too (the connection cap).
    socket.on('error', () => undefined);
    socket.on('close', () =>
      resolve({
        text: Buffer.concat(chunks).toString('utf8'),
        elapsedMs: performance.now() - started,
      }),
    );
  });
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

function problemOf(text: string): { status: number; code: string } {
  expect(text).toMatch(/\r\ncontent-type: application\/problem\+json/i);
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

// Each with the status HTTP has the server send and a code of the HTTP layer: never validation_failed,
// which the API document pairs with 422 only (section 7).
describe('requests Node answers itself go out as problem+json', () => {
  it('an HTTP/1.1 request without Host is 400', async () => {
    const { text } = await exchange(
      'GET /api/on-demand/v1/account HTTP/1.1\r\nConnection: close\r\n\r\n',
    );
    expect(statusOf(text)).toBe(400);
    expect(problemOf(text)).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('an Expect other than 100-continue is 417', async () => {
    const { text } = await exchange(
      'GET /api/on-demand/v1/account HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n',
    );
    expect(statusOf(text)).toBe(417);
    expect(problemOf(text)).toMatchObject({ status: 417, code: 'expectation_failed' });
  });

  it('Content-Length together with Transfer-Encoding is 400', async () => {
    const { text } = await exchange(
      'POST /api/on-demand/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(statusOf(text)).toBe(400);
    expect(problemOf(text)).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('a CONNECT request (no route ever sees one) is 404 not_found, not a silent close', async () => {
    const { text } = await exchange(
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(statusOf(text)).toBe(404);
    expect(problemOf(text)).toMatchObject({ status: 404, code: 'not_found', instance: '/' });
  });

  it('headers over the limit are 431', async () => {
    const { text } = await exchange(
      `GET /api/on-demand/v1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusOf(text)).toBe(431);
    expect(problemOf(text)).toMatchObject({
      status: 431,
      code: 'request_header_fields_too_large',
    });
  });
});

describe('slow and idle connections are closed within the configured limits', () => {
  it('headers that never finish: 408 and closed', async () => {
    const { text, elapsedMs } = await exchange(
      'GET /api/on-demand/v1/account HTTP/1.1\r\nHost: x\r\n',
    );
    expect(statusOf(text)).toBe(408);
    expect(problemOf(text)).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(elapsedMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
    expect(elapsedMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('a body that never finishes: 408 and closed', async () => {
    const { text, elapsedMs } = await exchange(
      'POST /api/on-demand/v1/oauth/token HTTP/1.1\r\nHost: x\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_',
    );
    expect(statusOf(text)).toBe(408);
    expect(elapsedMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('a connection that sends nothing is closed', async () => {
    const { text, elapsedMs } = await exchange('');
    expect([0, 408]).toContain(statusOf(text));
    expect(elapsedMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const { text, elapsedMs } = await exchange(
      'GET /api/on-demand/v1/catalog/products HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(statusOf(text)).toBe(401);
    expect(elapsedMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('connections beyond the cap are closed at once', async () => {
    const held = Array.from({ length: LIMITS.maxConnections }, () =>
      connect({ host: hostname, port: Number(port) }),
    );
    try {
      await Promise.all(held.map((s) => new Promise((ok) => s.once('connect', ok))));
      const extra = await exchange('GET /api/on-demand/v1/account HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(extra.text).toBe('');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
