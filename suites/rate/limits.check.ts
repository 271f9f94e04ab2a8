import { type CheckContext, check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { burst } from './burst.js';
import { type LimitClass, READS, sender, TOKENS, WRITES } from './limit-classes.js';

checksUseOwnAccounts();

/**
 * A fresh key may send `perMinute` requests of the class, all served, and the
 * next one gets 429 rate_limited. A fixed window that happens to begin during
 * the burst would serve the next one too: then the check tries once more with
 * another fresh key (two such coincidences in a row do not happen).
 */
async function expectLimit(ctx: CheckContext, limit: LimitClass): Promise<void> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const key = await ctx.key();
    const send = await sender(ctx, limit, key);
    const first = await burst(ctx, limit.perMinute, send);
    const unserved = first.filter((res) => res.status < 200 || res.status >= 300);
    if (unserved.length > 0) {
      const sample = unserved[0];
      ctx.violate({
        code: 'STATUS',
        pointer: '/status',
        expected: `${limit.perMinute} ${limit.name} a minute served`,
        received: `${unserved.length} of them answered ${[...new Set(unserved.map((r) => r.status))].join(', ')}`,
        message: `a fresh key's first ${limit.perMinute} ${limit.name} must all be served (section 8)`,
        ...(sample ? { exchange: sample.exchange } : {}),
      });
      return;
    }
    const next = await send();
    if (next.status === 429 || attempt === 2) {
      ctx.expectProblem(next, { status: 429, code: 'rate_limited' });
      return;
    }
    ctx.note(
      `${limit.name} number ${limit.perMinute + 1} was served: a window may have begun during the burst; trying a fresh key`,
    );
  }
}

// Section 8: reads (GET) 300 requests a minute per key; over it 429 rate_limited.
check('RATE-01', (ctx) => expectLimit(ctx, READS));

// Section 8: writes (POST, PATCH, DELETE) 60 requests a minute per key; over it 429 rate_limited.
check('RATE-02', (ctx) => expectLimit(ctx, WRITES));

// Section 5, rule 5 and section 8: at most 20 token requests a minute per key.
check('RATE-03', (ctx) => expectLimit(ctx, TOKENS));
