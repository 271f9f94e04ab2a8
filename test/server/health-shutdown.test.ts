import { rmSync } from 'node:fs';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { type AppOptions, buildApp } from '../../server/app.js';
import { emptyDir } from '../support/temp-dir.js';
import { API, CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';
import { describePostgres, freshDatabase } from './support/postgres.js';

/** Operable behind a balancer: the probes it asks, and a shutdown that finishes what it holds. */

it('GET /healthz answers 200 while the process runs; GET /readyz 200 while the database answers', async () => {
  const app = await buildApp({ controlToken: CONTROL_TOKEN });
  onTestFinished(() => app.close());
  const live = await app.inject({ method: 'GET', url: '/healthz' });
  expect([live.statusCode, live.json(), live.headers['cache-control']]).toEqual([
    200,
    { status: 'ok' },
    'no-store',
  ]);
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready', engine: 'sqlite' }]);
});

it('GET /readyz answers 503 problem+json api_unavailable once the database is gone', async () => {
  const app = await buildApp({ controlToken: CONTROL_TOKEN });
  onTestFinished(() => app.close());
  // Closing the store under a running app stands for a database that stopped answering.
  await app.ctx.store.close();
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  const reply = {
    status: ready.statusCode,
    headers: ready.headers,
    body: ready.json(),
    raw: ready,
  };
  expectProblemShape(reply, 'api_unavailable', 503);
  expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
});

/** Resolves once `origin`'s port refuses new connections (the listener is closed). */
async function refused(port: number): Promise<void> {
  for (;;) {
    const outcome = await new Promise<'open' | 'refused'>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('open');
      });
      socket.once('error', () => resolve('refused'));
    });
    if (outcome === 'refused') return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function readAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.once('end', () => resolve(text));
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
  });
}

/**
 * Shutdown begins while a POST /orders is in flight (headers and half its
 * body received): the listener closes at once, the request is still answered
 * 201, and a new server on the same store finds the order.
 */
async function closeFinishesInFlight(store: Pick<AppOptions, 'db' | 'databaseUrl'>): Promise<void> {
  const app = await buildApp({ ...store, controlToken: CONTROL_TOKEN });
  let closed = false;
  onTestFinished(async () => {
    if (!closed) await app.close();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const partner = await harness(app).partner();
  const body = Buffer.from(JSON.stringify(orderBody()));

  // Headers and half the body: the request is in flight when shutdown begins.
  const socket = connect(port, '127.0.0.1');
  onTestFinished(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const answer = readAnswer(socket);
  socket.write(
    `POST ${API}/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${partner.token}\r\n` +
      `Idempotency-Key: shutdown-1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  const half = Math.floor(body.length / 2);
  socket.write(body.subarray(0, half));

  const closing = app.close().then(() => {
    closed = true;
  });
  await refused(port);
  expect(closed).toBe(false);
  socket.write(body.subarray(half));
  const text = await answer;
  await closing;
  expect(text).toMatch(/^HTTP\/1\.1 201 /);
  const placed = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { id: string };

  const reopened = await buildApp({ ...store, controlToken: CONTROL_TOKEN });
  onTestFinished(() => reopened.close());
  const read = await harness(reopened).api('GET', `/orders/${placed.id}`, {
    token: partner.token,
  });
  expect([read.status, read.body.id]).toEqual([200, placed.id]);
}

it('close() finishes a POST /orders in flight: answered 201, the order kept (SQLite)', async () => {
  const dir = emptyDir('reference-shutdown-');
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  await closeFinishesInFlight({ db: join(dir, 'reference.db') });
});

describePostgres('graceful shutdown on PostgreSQL', (serverUrl) => {
  it('close() finishes a POST /orders in flight: answered 201, the order kept', async () => {
    const database = await freshDatabase(serverUrl);
    onTestFinished(() => database.drop());
    await closeFinishesInFlight({ databaseUrl: database.url });
  });
});
