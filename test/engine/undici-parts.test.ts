import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import * as undiciIndex from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector, Client, dispatchRequest, errors } from '../../lib/client/undici.js';

// lib/client/undici.ts loads undici's parts from their own files: an upgrade that moves one must
// fail here, not half-way through a run.
describe("undici's parts, loaded without its index", () => {
  it('are the classes and functions the index exports', () => {
    expect(Agent).toBe(undiciIndex.Agent);
    expect(Client).toBe(undiciIndex.Client);
    expect(buildConnector).toBe(undiciIndex.buildConnector);
    expect(errors).toBe(undiciIndex.errors);
  });

  let origin = '';
  const server = createServer((req, res) => {
    if (req.url === '/big') {
      // 1 MiB in 64 KiB chunks: far past a small cap.
      res.setHeader('content-type', 'text/plain');
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 16; i++) res.write(chunk);
      res.end();
      return;
    }
    if (req.url === '/silent') return; // Never answers: only an abort ends the request.
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const agents: InstanceType<typeof Agent>[] = [];
  afterEach(async () => {
    for (const agent of agents.splice(0)) await agent.destroy();
  });
  const newAgent = () => {
    const agent = new Agent();
    agents.push(agent);
    return agent;
  };
  /** A GET of `path` through `dispatcher`, reading up to `maxBytes`. */
  const get = (dispatcher: Dispatcher, path: string, maxBytes = 1024) =>
    dispatchRequest(new URL(`${origin}${path}`), {
      dispatcher,
      method: 'GET',
      headers: {},
      body: null,
      maxBytes,
    });

  it('dispatchRequest sends the method, path and query of the URL through the dispatcher given', async () => {
    const dispatcher = newAgent();
    const posted = dispatchRequest(new URL(`${origin}/a/b?x=1&y=%20`), {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      maxBytes: 1024,
    });
    const answer = await posted.answer;
    expect(posted.answered).toBe(true);
    expect(answer.statusCode).toBe(200);
    expect(answer.over).toBe(false);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body.toString())).toEqual({ method: 'POST', url: '/a/b?x=1&y=%20' });
    const bare = await get(dispatcher, '/c').answer;
    expect(JSON.parse(bare.body.toString())).toEqual({ method: 'GET', url: '/c' });
  });

  it('reads no further than maxBytes, keeps what it read, and closes that connection', async () => {
    const dispatcher = newAgent();
    const answer = await get(dispatcher, '/big', 100 * 1024).answer;
    expect(answer.over).toBe(true);
    expect(answer.body.length).toBeLessThanOrEqual(100 * 1024);
    expect(answer.body.length).toBeGreaterThan(0);
    expect(answer.body.every((byte) => byte === 0x78)).toBe(true);
    // The connection is gone with the rest of the body: the next request still gets its answer.
    const next = await get(dispatcher, '/after').answer;
    expect(JSON.parse(next.body.toString())).toEqual({ method: 'GET', url: '/after' });
  });

  it('abort ends a request with no answer, with the reason given', async () => {
    const dispatcher = newAgent();
    const silent = get(dispatcher, '/silent');
    // Aborted before undici even started it, and again once it went out: one rejection, the first reason.
    const reason = new Error('deadline');
    silent.abort(reason);
    silent.abort(new Error('later'));
    await expect(silent.answer).rejects.toBe(reason);
    expect(silent.answered).toBe(false);
  });

  it('abort ends a request already sent, with the reason given', async () => {
    const dispatcher = newAgent();
    const silent = get(dispatcher, '/silent');
    // Wait until the server holds the request: undici has started it.
    await new Promise<void>((resolve) => server.once('request', () => resolve()));
    const reason = new Error('deadline');
    silent.abort(reason);
    await expect(silent.answer).rejects.toBe(reason);
  });

  it('a dispatcher that throws as it is given the request rejects the answer, never throws', async () => {
    const refusal = new Error('refused');
    const dispatcher = newAgent().compose(() => () => {
      throw refusal;
    });
    const refused = get(dispatcher, '/c');
    await expect(refused.answer).rejects.toBe(refusal);
  });
});
