import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('rate limits (§8, contract §2: fixed 60-second windows per key and class)', () => {
  it('300 reads a minute per key, then 429 rate_limited with Retry-After; writes are counted apart', async () => {
    const partner = await h.partner();
    await h.startOfWindow(partner.accountId);
    let last = await h.api('GET', '/account', { token: partner.token });
    for (let i = 1; i < 300; i++) last = await h.api('GET', '/account', { token: partner.token });
    expect(last.status).toBe(200);
    expect(last.headers.ratelimit).toMatch(/^"read";r=0;t=\d+$/);
    expect(last.headers['ratelimit-policy']).toBe('"read";q=300;w=60');
    const limited = await h.api('GET', '/orders', { token: partner.token });
    expectProblemShape(limited, 'rate_limited', 429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    // Writes have their own window.
    expect((await h.placeOrder(partner)).status).toBe(201);
    // Once Retry-After has passed on the account clock, reads work again.
    await h.advance(partner.accountId, retryAfter);
    expect((await h.api('GET', '/account', { token: partner.token })).status).toBe(200);
  });

  it('60 writes a minute per key; each key has its own window', async () => {
    const partner = await h.partner({ limits: { max_orders_per_day: 1000 } });
    await h.awayFromMidnight(partner.accountId);
    await h.startOfWindow(partner.accountId);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push(
        (await h.api('POST', '/orders/ord_nope/cancel', { token: partner.token })).status,
      );
    expect(new Set(statuses)).toEqual(new Set([404]));
    const limited = await h.placeOrder(partner);
    expectProblemShape(limited, 'rate_limited', 429);
    expect(limited.headers.ratelimit).toMatch(/^"write";r=0;t=\d+$/);
    const other = await h.key(partner.accountId);
    expect((await h.placeOrder({ ...partner, token: await h.token(other) })).status).toBe(201);
  });

  it('limits are per account clock: advancing another account does not reset this one', async () => {
    const a = await h.partner({ rate_limits: { read: 2 } });
    const b = await h.partner();
    await h.startOfWindow(a.accountId);
    await h.api('GET', '/account', { token: a.token });
    await h.api('GET', '/account', { token: a.token });
    await h.advance(b.accountId, 120);
    expectProblemShape(await h.api('GET', '/account', { token: a.token }), 'rate_limited', 429);
  });
});
