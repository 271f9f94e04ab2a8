import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { FAILED_TOKEN_REQUESTS_PER_ADDRESS } from '../../server/config/api.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

const UNKNOWN = {
  access_key_id: `odp_test_ak_${'x'.repeat(24)}`,
  secret_key: `odp_test_sk_${'y'.repeat(40)}`,
};

describe('failed token requests are rate-limited', () => {
  it('a known Access Key ID: failures spend the key token budget, then 429 with Retry-After', async () => {
    const partner = await h.partner();
    await h.startOfWindow(partner.accountId);
    const wrong = { ...partner.key, secret_key: `${partner.key.secret_key.slice(0, -1)}Z` };
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await h.tokenRequest(wrong)).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await h.tokenRequest(wrong);
    expectProblemShape(limited, 'rate_limited', 429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter >= 1 && retryAfter <= 60).toBe(true);
    // The right secret waits too: it is the same budget.
    expectProblemShape(await h.tokenRequest(partner.key), 'rate_limited', 429);
    await h.advance(partner.accountId, retryAfter);
    expect((await h.tokenRequest(partner.key)).status).toBe(200);
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
