import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  /** `http://127.0.0.1:<port>`: the target's origin, seen through the proxy. */
  origin: string;
  close(): Promise<void>;
}

/**
 * A TCP proxy in this process that holds every chunk for half the round-trip
 * time in each direction, so that each request/response pays `rttMs` more,
 * as over a real network (a staging server is not on loopback).
 * A fixed delay per chunk keeps each connection's bytes in order.
 */
export async function startLatencyProxy(target: string, rttMs: number): Promise<LatencyProxy> {
  const { hostname, port } = new URL(target);
  const oneWay = rttMs / 2;
  const sockets = new Set<Socket>();
  const pipeDelayed = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, oneWay);
    });
    from.on('end', () => setTimeout(() => to.end(), oneWay));
    from.on('error', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    pipeDelayed(client, upstream);
    pipeDelayed(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${proxyPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
