import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undiciIndex from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector, Client, errors, request } from '../../lib/client/undici.js';

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
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('request sends the method, path and query of the URL through the dispatcher given', async () => {
    const agent = new Agent();
    try {
      const res = await request(new URL(`${origin}/a/b?x=1&y=%20`), {
        method: 'POST',
        body: '{}',
        dispatcher: agent,
      });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/a/b?x=1&y=%20' });
      const bare = await request(new URL(`${origin}/c`), { method: 'GET', dispatcher: agent });
      expect(await bare.body.json()).toEqual({ method: 'GET', url: '/c' });
    } finally {
      await agent.close();
    }
  });
});
