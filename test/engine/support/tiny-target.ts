import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long a dead target (`dieAfter`) holds a request before dropping its connection. */
const DYING_MS = 200;

export type TargetBehaviour = 'unauthorized' | 'garbage' | 'echo' | 'throttle';

export interface TinyTarget {
  origin: string;
  /** Requests it received (method and url), for assertions. */
  seen: string[];
  /** The first request (method and url) of each connection it accepted: who opened which. */
  openedBy: string[];
  close(): Promise<void>;
}

/**
 * A stand-in target on a free loopback port. `unauthorized` answers every
 * API call 401 problem+json (a well-behaved door with no key); `garbage`
 * answers nonsense (wrong status, body that claims JSON and is not, bytes);
 * `throttle` answers every API call 429 rate_limited with Retry-After: 1;
 * `echo` sends back what it received, credentials included (a plain token request
 * is granted). With a control
 * token it also serves `/__control/capabilities` with no feature. With
 * `dieAfter: N` it answers N requests, then drops every connection a request
 * arrives on, unanswered, a fifth of a second after it arrived: a target gone
 * half-way, told by a network error rather than by the request timeout (which
 * a loaded machine can reach before the first answer too), each failing check
 * taking long enough that a run which stops early visibly does.
 */
export async function startTinyTarget(
  behaviour: TargetBehaviour,
  controlToken?: string,
  options: { dieAfter?: number } = {},
): Promise<TinyTarget> {
  const seen: string[] = [];
  const openedBy: string[] = [];
  const sockets = new WeakSet<object>();
  const server = createServer((req, res) => {
    if (!sockets.has(req.socket)) {
      sockets.add(req.socket);
      openedBy.push(`${req.method} ${req.url}`);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (controlToken && req.url?.startsWith('/__control/'))
        return control(req, res, controlToken);
      // A target that dies half-way: it still accepts connections but drops them unanswered.
      if (options.dieAfter !== undefined && seen.length > options.dieAfter) {
        setTimeout(() => req.socket.destroy(), DYING_MS).unref();
        return;
      }
      answer(behaviour, req, Buffer.concat(chunks).toString('utf8'), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    openedBy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function control(req: IncomingMessage, res: ServerResponse, token: string): void {
  if (req.headers['x-control-token'] !== token) {
    res
      .writeHead(401, { 'content-type': 'application/problem+json' })
      .end('{"code":"unauthorized"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"protocol":"1","features":[]}');
}

function answer(
  behaviour: TargetBehaviour,
  req: IncomingMessage,
  body: string,
  res: ServerResponse,
): void {
  switch (behaviour) {
    case 'unauthorized':
      res
        .writeHead(401, {
          'content-type': 'application/problem+json',
          'www-authenticate': 'Bearer',
        })
        .end(
          JSON.stringify({
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            code: 'unauthorized',
          }),
        );
      return;
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json', 'x-garbage': '\u00ff' });
      res.end(
        Buffer.from([
          0x7b, 0x00, 0xff, 0xfe, 0x3c, 0x68, 0x74, 0x6d, 0x6c, 0x3e, 0x22, 0x6e, 0x6f, 0x70, 0x65,
        ]),
      );
      return;
    case 'throttle':
      res
        .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' })
        .end(JSON.stringify({ status: 429, code: 'rate_limited', title: 'Too Many Requests' }));
      return;
    case 'echo':
      // A plain token request (the run's preflight) is granted, so the run goes on to its checks.
      if (req.url?.endsWith('/oauth/token') && body === 'grant_type=client_credentials') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"granted","token_type":"Bearer","expires_in":3600}');
        return;
      }
      res
        .writeHead(401, {
          'content-type': 'application/json',
          'x-echo-authorization': req.headers.authorization ?? '',
        })
        .end(JSON.stringify({ you_sent: { headers: req.headers, body } }));
      return;
  }
}
