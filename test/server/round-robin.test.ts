import { afterEach, describe, expect, it } from 'vitest';
import { rawServer } from '../support/raw-http-server.js';
import { roundRobin } from './support/round-robin.js';

/**
 * The tests' balancer (test/server/support/round-robin.ts) must not turn a race of its own
 * connection pool into a 502: a check would then end in `error` for a reason that is neither the
 * target's nor the suite's.
 */
describe('the round-robin balancer of the tests', () => {
  const teardown: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of teardown.splice(0).reverse()) await close();
  });

  it('sends a request again, body and all, when the upstream closed the kept-alive connection under it', async () => {
    // The upstream's first connection answers one request, then resets as the next comes on it.
    const upstream = rawServer((connection, request) =>
      connection === 1 && request === 2 ? 'reset' : `c${connection}r${request}`,
    );
    const origin = await upstream.listen();
    teardown.push(() => upstream.close());
    const balancer = await roundRobin([origin]);
    teardown.push(() => balancer.close());

    const first = await fetch(`${balancer.origin}/a`, { method: 'POST', body: 'one' });
    expect(await first.text()).toBe('c1r1');
    const second = await fetch(`${balancer.origin}/b`, { method: 'POST', body: 'two' });
    expect(second.status).toBe(200);
    expect(await second.text()).toBe('c2r1');
    expect(upstream.connections()).toBe(2);
    expect(upstream.bodies).toEqual(['one', 'two']);
    expect(balancer.sent).toEqual([2]);
  });

  it('answers 502 when a new connection to the upstream is reset: nothing was acknowledged', async () => {
    const upstream = rawServer(() => 'reset');
    const origin = await upstream.listen();
    teardown.push(() => upstream.close());
    const balancer = await roundRobin([origin]);
    teardown.push(() => balancer.close());

    const answer = await fetch(`${balancer.origin}/a`, { method: 'POST', body: 'one' });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toBe('upstream unreachable');
    expect(upstream.connections()).toBe(1);
  });
});
