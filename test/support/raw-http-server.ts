import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

export interface RawServer {
  /** How many connections were accepted so far. */
  connections(): number;
  /** The bodies of the requests it answered, in order (`content-length` bodies only). */
  readonly bodies: string[];
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A server speaking HTTP/1.1 by hand, so that a test says what each connection does to each
 * request on it: `answer(connection, request)` gives the body to answer, or `reset` to reset the
 * connection without answering (a server closing a kept-alive connection just as a request
 * arrives on it, which node:http cannot be made to do on purpose).
 */
export function rawServer(
  answer: (connection: number, request: number) => string | 'reset',
): RawServer {
  let connections = 0;
  const bodies: string[] = [];
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
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.slice(end + 4, end + 4 + length);
        pending = pending.slice(end + 4 + length);
        const reply = answer(connection, ++requests);
        if (reply === 'reset') {
          socket.resetAndDestroy();
          return;
        }
        bodies.push(body);
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-length: ${reply.length}\r\nconnection: keep-alive\r\n\r\n${reply}`,
        );
      }
    });
  });
  return {
    connections: () => connections,
    bodies,
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
