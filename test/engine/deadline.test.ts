import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deadline } from '../../lib/client/deadline.js';

/**
 * A request's deadline (lib/client/deadline.ts) against a held-up event loop:
 * an answer that reached the socket while the loop was busy is read before
 * the deadline may end the request. The loop is held with Atomics.wait, past
 * the deadline whatever the machine's load, and the answer is in the socket
 * before the loop turns again: the order of what follows is the loop's, not
 * the clock's.
 */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function socketPair(): Promise<{ near: Socket; far: Socket }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const near = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => near.once('connect', () => resolve()));
  const far = await accepted;
  closers.push(() => {
    near.destroy();
    far.destroy();
    server.close();
  });
  return { near, far };
}

function holdTheLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('a deadline a busy event loop cannot trip', () => {
  it('lets an answer that arrived while the loop was held be read first', async () => {
    const { near, far } = await socketPair();
    const expired: Error[] = [];
    const until = deadline(20, (reason) => expired.push(reason));
    const read = new Promise<string>((resolve) =>
      near.once('data', (chunk) => {
        until.clear();
        resolve(String(chunk));
      }),
    );
    far.write('answer');
    holdTheLoop(200);
    expect(await read).toBe('answer');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(expired).toEqual([]);
  });

  it('ends a request that has no answer, as a timeout', async () => {
    const reason = await new Promise<unknown>((resolve) => deadline(10, resolve));
    expect(reason).toMatchObject({ name: 'TimeoutError', message: 'no answer within 10 ms' });
  });
});
