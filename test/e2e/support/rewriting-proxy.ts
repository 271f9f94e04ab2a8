import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/** An answer as the proxy hands it on: what a rewrite may change. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A server in front of `upstream` that hands every answer on through
 * `rewrite`: a half fix of a defect (another invalid Retry-After, another
 * wrong `type`, another wrong status) made of the correct reference, or a
 * server whose answer is no longer the run's. Closed after the file.
 */
export async function rewritingProxy(
  upstream: string,
  rewrite: (req: { method: string; url: string }, answer: ProxiedAnswer) => ProxiedAnswer,
): Promise<{ origin: string }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (up) => {
          const body: Buffer[] = [];
          up.on('data', (chunk: Buffer) => body.push(chunk));
          up.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(up.headers)) {
              if (
                value === undefined ||
                ['content-length', 'transfer-encoding', 'connection'].includes(name)
              )
                continue;
              headers[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            const answer = rewrite(
              { method: req.method ?? 'GET', url: req.url ?? '/' },
              { status: up.statusCode ?? 502, headers, body: Buffer.concat(body).toString('utf8') },
            );
            res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
          });
        },
      );
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A JSON body with some members changed (a problem's `type`, say); other bodies as they are. */
export function withJson(body: string, change: (json: Record<string, unknown>) => void): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    change(json);
    return JSON.stringify(json);
  } catch {
    return body;
  }
}
