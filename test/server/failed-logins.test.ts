import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { FAILED_TOKEN_REQUESTS_PER_ADDRESS } from '../../server/config/api.js';
import { CONTROL_TOKEN, expectProblemShape, harness, withWrongSecret } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

const UNKNOWN = {
  access_key_id: `odp_test_ak_${'x'.repeat(24)}`,
  secret_key: `odp_test_sk_${'y'.repeat(40)}`,
};

describe('failed token requests are rate-limited', () => {
  it('a known Access Key ID: failures are limited per key and address, then 429 with Retry-After', async () => {
    const partner = await h.partner();
    await h.startOfWindow(partner.accountId);
    const attacker = { remoteAddress: '198.51.100.66' };
    const wrong = withWrongSecret(partner.key);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await h.tokenRequest(wrong, undefined, attacker)).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await h.tokenRequest(wrong, undefined, attacker);
    expectProblemShape(limited, 'rate_limited', 429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter >= 1 && retryAfter <= 60).toBe(true);
    await h.advance(partner.accountId, retryAfter);
    expect((await h.tokenRequest(wrong, undefined, attacker)).status).toBe(401);
  });

  it('failures naming a key cannot lock its owner out: the owner still gets tokens, the attacker is refused', async () => {
    const partner = await h.partner();
    await h.startOfWindow(partner.accountId);
    const attacker = { remoteAddress: '198.51.100.77' };
    const owner = { remoteAddress: '192.0.2.10' };
    const wrong = withWrongSecret(partner.key);
    const attack: number[] = [];
    for (let i = 0; i < 40; i++)
      attack.push((await h.tokenRequest(wrong, undefined, attacker)).status);
    expect(attack.filter((status) => status === 401)).toHaveLength(20);
    expect(attack.filter((status) => status === 429)).toHaveLength(20);
    // The owner, from its own address, with its secret: a token, again and again.
    for (let i = 0; i < 5; i++) {
      expect((await h.tokenRequest(partner.key, undefined, owner)).status).toBe(200);
    }
    // Its own wrong secret from its own address has its own budget, untouched by the attacker's.
    expectProblemShape(await h.tokenRequest(wrong, undefined, owner), 'unauthorized', 401);
    // The attacker stays refused while the window lasts.
    expectProblemShape(await h.tokenRequest(wrong, undefined, attacker), 'rate_limited', 429);
  });

  it('an unknown Access Key ID: limited per client address', async () => {
    // The per-address window is a minute of real time: hold the clock still inside one, so the
    // requests never straddle a minute boundary (no time passes, none is waited for).
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    const from = { remoteAddress: '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_TOKEN_REQUESTS_PER_ADDRESS; i++) {
      statuses.push((await h.tokenRequest(UNKNOWN, undefined, from)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await h.tokenRequest(UNKNOWN, undefined, from);
    expectProblemShape(limited, 'rate_limited', 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address has its own budget.
    const other = await h.tokenRequest(UNKNOWN, undefined, { remoteAddress: '203.0.113.8' });
    expectProblemShape(other, 'unauthorized', 401);
  });
});
