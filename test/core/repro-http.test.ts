import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeConnections, NoAnswer, send } from '../../lib/reports/repro/runtime/http.mjs';
import { rawServer } from '../support/raw-http-server.js';

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
