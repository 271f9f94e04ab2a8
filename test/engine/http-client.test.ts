import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDispatcher } from '../../lib/client/dispatcher.js';
import {
  HttpClient,
  MAX_BODY_BYTES,
  UNRECORDED,
  type WireRequest,
} from '../../lib/client/http-client.js';
import { toHttpResponse } from '../../lib/client/response.js';
import { HarnessError } from '../../lib/violations/harness-error.js';

/**
 * The one HTTP client of the suite against a misbehaving target: it follows
 * no redirect, sends a credential only to the origin it belongs to, reads
 * every body up to one cap (an endless one ends), and reads no JSON nested
 * past the suite's bound. A second server on another port (the watcher)
 * records whatever reaches it.
 */
interface Listening {
  origin: string;
  seen: string[];
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Listening> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let watcher: Listening;
let target: Listening;

beforeAll(async () => {
  watcher = await listen((_req, res) => res.end('{"watched":true}'));
  target = await listen((req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    switch (req.url) {
      case '/redirect':
        res.writeHead(307, { location: `${watcher.origin}/stolen` }).end();
        return;
      case '/big':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(Buffer.concat([Buffer.from('{"a":1}'), Buffer.alloc(3 * 1024 * 1024, 0x20)]));
        return;
      case '/endless': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
        return;
      }
      case '/deep':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }
  });
});

afterAll(async () => {
  for (const dispatcher of dispatchers) await dispatcher.destroy();
  await target?.close();
  await watcher?.close();
});

const dispatchers: Dispatcher[] = [];

function client(origins: { api?: string; control?: string }): HttpClient {
  const dispatcher = newDispatcher({ origins });
  dispatchers.push(dispatcher);
  return new HttpClient({ dispatcher, timeoutMs: 30_000 });
}

function get(url: string, headers: Record<string, string> = {}): WireRequest {
  return { method: 'GET', url, headers, channel: 'api' };
}

describe('the suite follows no redirect', () => {
  it('answers a 307 as it came, credentials and all staying home: the watcher gets nothing', async () => {
    const http = client({ api: target.origin, control: target.origin });
    const res = await http.send(
      get(`${target.origin}/redirect`, {
        authorization: 'Bearer odp_at_never-leaves-its-origin-000',
        'x-control-token': 'control-token-stays-home',
      }),
      UNRECORDED,
    );
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`${watcher.origin}/stolen`);
    expect(watcher.seen).toEqual([]);
  });
});

describe('credentials only to the origin they belong to', () => {
  it('refuses to send Authorization anywhere but the target, before a byte leaves', async () => {
    const http = client({ api: target.origin, control: watcher.origin });
    const sent = http.send(
      get(`${watcher.origin}/x`, { authorization: 'Bearer abcdefgh' }),
      UNRECORDED,
    );
    await expect(sent).rejects.toThrow(HarnessError);
    await expect(sent).rejects.toMatchObject({ code: 'HARNESS_BUG' });
    expect(watcher.seen).toEqual([]);
  });

  it('refuses to send the control token anywhere but the control API', async () => {
    const http = client({ api: watcher.origin, control: target.origin });
    await expect(
      http.send(get(`${watcher.origin}/x`, { 'x-control-token': 'secret-of-control' }), UNRECORDED),
    ).rejects.toMatchObject({ code: 'HARNESS_BUG' });
    expect(watcher.seen).toEqual([]);
    // Its own origin, and a request with no credential anywhere: sent.
    expect(
      (
        await http.send(
          get(`${target.origin}/ok`, { 'x-control-token': 'secret-of-control' }),
          UNRECORDED,
        )
      ).status,
    ).toBe(200);
    expect((await http.send(get(`${watcher.origin}/plain`), UNRECORDED)).status).toBe(200);
  });
});

describe('one cap on every body', () => {
  it('reads an answer over the cap up to the cap, says so, and judges it in those words', async () => {
    const http = client({ api: target.origin });
    const res = await http.send(get(`${target.origin}/big`), UNRECORDED);
    expect(res.over).toBe(true);
    expect(res.text.startsWith('{"a":1}')).toBe(true);
    expect(res.text.length).toBeLessThan(MAX_BODY_BYTES);
    const answer = toHttpResponse(res);
    expect(answer.json).toBeUndefined();
    expect(answer.unreadable).toBe('answer over 2 MiB (the suite reads no further)');
  });

  it('ends an endless answer at the cap', async () => {
    const http = client({ api: target.origin });
    const res = await http.send(get(`${target.origin}/endless`), UNRECORDED);
    expect(res.over).toBe(true);
    expect(res.text.length).toBe(64 * 1024);
  });

  it('reads no JSON nested past the bound: no stack of the suite overflows, the answer is judged as it is', async () => {
    const http = client({ api: target.origin });
    const answer = toHttpResponse(await http.send(get(`${target.origin}/deep`), UNRECORDED));
    expect(answer.status).toBe(200);
    expect(answer.json).toBeUndefined();
    expect(answer.unreadable).toMatch(/^JSON nested deeper than 100 levels/);
  });
});

describe('one classifier of network failures', () => {
  it("says why in words, as a harness error (never the target's violation)", async () => {
    const closed = await listen(() => undefined);
    const origin = closed.origin;
    await closed.close();
    const http = client({ api: origin });
    await expect(http.send(get(`${origin}/x`), UNRECORDED)).rejects.toMatchObject({
      code: 'HARNESS_NETWORK',
      message: `GET ${origin}: connection refused (ECONNREFUSED)`,
    });
  });
});
