import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeConnections, NoAnswer, send } from '../../lib/reports/repro/runtime/http.mjs';

/**
 * A server speaking HTTP/1.1 by hand, so that a test says what each connection does to each
 * request on it: `answer(connection, request)` gives the body to answer, or `reset` to reset the
 * connection without answering.
 */
function rawServer(answer: (connection: number, request: number) => string | 'reset') {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const connection = ++connections;
    let requests = 0;
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      while (pending.includes('\r\n\r\n')) {
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        const body = answer(connection, ++requests);
        if (body === 'reset') {
          socket.resetAndDestroy();
          return;
        }
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
  });
  return {
    connections: () => connections,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("a reproduction's requests (lib/reports/repro/runtime/http.mjs)", () => {
  afterEach(() => closeConnections());
  afterAll(() => closeConnections());

  it('sends a request again, on a new connection, when a kept-alive one was closed under it', async () => {
    // The first connection answers its first request, then resets as the second comes on it
    // (a target closing an idle connection just as the request goes out).
    const server = rawServer((connection, request) =>
      connection === 1 && request === 2 ? 'reset' : `c${connection}r${request}`,
    );
    const origin = await server.listen();
    try {
      const first = await send({ url: `${origin}/a`, method: 'GET', headers: {} });
      expect(first.text).toBe('c1r1');
      const second = await send({ url: `${origin}/b`, method: 'GET', headers: {} });
      expect(second.text).toBe('c2r1');
      expect(server.connections()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('does not send again when a new connection is reset: the target gave no answer', async () => {
    const server = rawServer(() => 'reset');
    const origin = await server.listen();
    try {
      const failure = await send({ url: `${origin}/a`, method: 'GET', headers: {} }).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(NoAnswer);
      expect((failure as NoAnswer).code).toBe('ECONNRESET');
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
