import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  retryAfterSeconds,
  WINDOW_SECONDS,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectSuccess } from '../support/expect-success.js';
import { firstRefusal } from './burst.js';
import { LIMITS, TOKENS } from './limit-classes.js';
import { type Refusal, refusal } from './window.js';

// Each check on an account of its own, its clock its own: they may run side by side.
checksUseOwnAccounts();

/**
 * One 429 of each class (reads, writes, token requests), each provoked with a
 * fresh key in an account of its own, all at once: made once for the file's
 * checks that judge the 429 itself (RATE-04, RATE-05, RATE-11), which read it
 * and move no clock.
 */
function refusals(ctx: CheckContext): Promise<Refusal[]> {
  return ctx.sharedInFile('a 429 of each class', () =>
    allAtOnce(LIMITS, async (limit) => refusal(ctx, limit, await ctx.newAccount())),
  );
}

// Section 7 (429 rate_limited: "Response has header Retry-After in seconds") and section 8
// ("Over any rate limit"): reads, writes and token requests alike.
check('RATE-04', async (ctx) => {
  for (const { limit, res } of await refusals(ctx)) {
    ctx.expectHeader(res, 'retry-after', /^\s*\d+\s*$/, `a number of seconds (${limit.name})`);
  }
});

// Section 8, RFC 9110 §10.2.3: delta-seconds is a whole number; 0 would invite an immediate retry
// that the same window refuses again, so at least 1. Every class.
check('RATE-05', async (ctx) => {
  for (const { limit, res } of await refusals(ctx)) {
    ctx.expectHeader(
      res,
      'retry-after',
      { seconds: { min: 1 } },
      `a whole number of seconds, at least 1 (${limit.name})`,
    );
  }
});

// Section 8: every limit counts per minute, so under any reading of the minute (fixed windows, a
// sliding one) a refused key may send again within 60 seconds: a longer Retry-After misstates when.
// Every class; a 429 without a Retry-After in seconds is RATE-04's.
check('RATE-11', async (ctx) => {
  for (const { limit, res } of await refusals(ctx)) {
    const seconds = retryAfterSeconds(res.header('retry-after'));
    if (seconds === undefined) {
      ctx.note(`${limit.name}: no Retry-After in seconds to judge (RATE-04)`);
      continue;
    }
    ctx.expectTrue(seconds <= WINDOW_SECONDS, {
      code: 'HEADER',
      pointer: '/headers/retry-after',
      expected: `at most ${WINDOW_SECONDS} seconds`,
      received: res.header('retry-after') ?? null,
      message: `${limit.name}: a limit per minute asks a wait of ${seconds} s`,
      exchange: res.exchange,
      // Judged only where Retry-After is a number of seconds (else RATE-04's): so again.
      must: {
        any: [
          { not: { at: '/headers/retry-after', is: { seconds: {} } } },
          { at: '/headers/retry-after', is: { seconds: { max: WINDOW_SECONDS } } },
        ],
      },
    });
  }
});

// Section 7 (remedy of rate_limited: "Wait, then retry") and section 8: waiting Retry-After seconds
// on the account clock is enough for the same call to be served. Every class, each on an account
// of its own (its clock moves), all at once.
check('RATE-06', async (ctx) => {
  await allAtOnce(LIMITS, async (limit) => {
    const account = await ctx.newAccount();
    const { res, send } = await refusal(ctx, limit, account);
    const seconds = retryAfterSeconds(res.header('retry-after'));
    if (seconds === undefined) {
      ctx.violate({
        code: 'HEADER',
        pointer: '/headers/retry-after',
        expected: 'a number of seconds to wait',
        received: res.header('retry-after') ?? null,
        message: `the 429 of ${limit.name} says no number of seconds to wait`,
        exchange: res.exchange,
        must: { at: '/headers/retry-after', is: { seconds: {} } },
      });
      return;
    }
    await ctx.advanceClock(account, seconds);
    const again = await send();
    // Served is any 2xx: the exact success status of a quote is not shown (the profile's, a DIALECT fact).
    if (!expectSuccess(ctx, again, `${limit.name}: the same call after Retry-After`)) {
      ctx.note(
        `${limit.name}: still refused ${seconds} s (the Retry-After) later on the account clock`,
      );
    }
  });
});

// Contract section 2: fixed 60-second windows per key and class; Retry-After is the whole seconds
// until the window resets: at most 60, and two seconds before that the key is still refused.
check('RATE-10', async (ctx) => {
  const { key, res, send, sentAt } = await earlyInAWindow(ctx, await refusal(ctx, TOKENS));
  const seconds = retryAfterSeconds(res.header('retry-after'));
  ctx.expectTrue(seconds !== undefined && seconds <= 60, {
    code: 'HEADER',
    pointer: '/headers/retry-after',
    expected: 'at most 60 seconds',
    received: res.header('retry-after') ?? null,
    message: 'a 60-second window resets within 60 seconds',
    exchange: res.exchange,
    must: { at: '/headers/retry-after', is: { seconds: { max: 60 } } },
  });
  if (seconds === undefined || seconds < 3) {
    ctx.note('Retry-After too short to look two seconds before it');
    return;
  }
  await ctx.advanceClock(key.accountId ?? '', seconds - 2);
  const early = await send();
  // The account clock also runs in real time. Retry-After rounds up, so the window resets more than
  // seconds - 1 after the refusal; the early request came seconds - 2 plus the real time since the
  // burst, at most: only within the second left is a served request the window's fault.
  const late = (performance.now() - sentAt) / 1000;
  if (early.status !== 429 && late >= 1) {
    return ctx.notVerifiable(
      `the request meant for two seconds before the reset reached the target up to ${late.toFixed(1)} s late: too slow a round trip to tell`,
    );
  }
  ctx.expectTrue(early.status === 429, {
    code: 'STATUS',
    pointer: '/status',
    expected: 429,
    received: early.status,
    message: `served ${seconds - 2} s after a Retry-After of ${seconds}: the window is not the one Retry-After names`,
    exchange: early.exchange,
    must: { at: '/status', is: { equals: 429 } },
  });
});

/**
 * The refusal RATE-10 judges must come early in a window, so that its
 * Retry-After is near the full 60 seconds (the limit test/matrices/boundaries.ts
 * shows it sends); a fresh account's clock may be anywhere in one. Moved by
 * the first refusal's Retry-After, as RATE-06 shows a client may, the clock
 * is at the next window's start: the key's burst again is refused early in
 * it. Without a usable Retry-After the first refusal is judged.
 */
async function earlyInAWindow(ctx: CheckContext, first: Refusal): Promise<Refusal> {
  const seconds = retryAfterSeconds(first.res.header('retry-after'));
  if (seconds === undefined || seconds < 1 || seconds > 60) return first;
  await ctx.advanceClock(first.key.accountId ?? '', seconds);
  const sentAt = performance.now();
  const res = await firstRefusal(ctx, TOKENS.perMinute, first.send);
  if (!res) {
    ctx.notVerifiable(
      `no 429 came after ${2 * TOKENS.perMinute + 1} token requests of one key in the window after its first refusal: nothing to judge (see the token limit's own rule)`,
    );
  }
  return { ...first, res, sentAt };
}
