import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  origin: string;
  /** How many requests went to each upstream, in order. */
  readonly sent: number[];
  close(): Promise<void>;
}

/**
 * A tiny round-robin HTTP balancer, as an operator would put in front of
 * several reference instances: each request goes to the next upstream in
 * turn, whatever its path (control API included). An upstream that cannot be
 * reached answers 502, so the client knows nothing was acknowledged; a kept-alive
 * connection the upstream closed as it was reused is not that, and the request
 * goes again on a new one. With `forwardedFor`, it appends the client's address
 * to `X-Forwarded-For`.
 */
export async function roundRobin(
  upstreams: readonly string[],
  options: { forwardedFor?: boolean } = {},
): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sent = upstreams.map(() => 0);
  let next = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % upstreams.length;
    sent[index] = (sent[index] ?? 0) + 1;
    const target = new URL(upstreams[index] ?? '');
    // As HAProxy's `option forwardfor` and nginx's `$proxy_add_x_forwarded_for` (docs/sandbox.md).
    const headers = options.forwardedFor
      ? {
          ...req.headers,
          'x-forwarded-for': [req.headers['x-forwarded-for'], req.socket.remoteAddress]
            .filter((part) => part !== undefined)
            .join(', '),
        }
      : req.headers;
    const forward = (body: Buffer, fresh: boolean): void => {
      const upstream = request(
        {
          // A fresh connection bypasses the pool: see the resend below.
          agent: fresh ? false : agent,
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the upstream closed just as it was reused
        // fails before any answer: nothing reached the upstream, so the
        // request is sent once more on a new connection, as nginx does with
        // `proxy_next_upstream error`. Any other failure is a 502.
        const closedIdle = error.code === 'ECONNRESET' || error.code === 'EPIPE';
        if (!fresh && upstream.reusedSocket && closedIdle && !res.headersSent) {
          forward(body, true);
          return;
        }
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('upstream unreachable');
      });
      upstream.end(body);
    };
    // The body is kept whole so that it can be sent a second time.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(Buffer.concat(chunks), false));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    sent,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
