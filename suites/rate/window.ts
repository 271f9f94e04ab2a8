import type { CheckContext, HttpResponse, Key, TestAccount } from '../../lib/check/index.js';
import { WINDOW_SECONDS } from '../../lib/check/index.js';
import { burst, firstRefusal } from './burst.js';
import { type LimitClass, sender } from './limit-classes.js';

/**
 * Moves the account clock to just after the start of a whole minute, so that
 * what a check sends next (a few seconds of requests) falls in one window of
 * the reference dialect's fixed 60-second windows aligned to whole minutes
 * of the account clock (contract section 2). Under any other reading of "per
 * minute" (a window that starts with a key's first request, a sliding one)
 * moving the clock forward only lets older requests age out. A target whose
 * clock answer shows no time is left where it is.
 */
export async function startOfAMinute(
  ctx: CheckContext,
  account: TestAccount | string,
): Promise<void> {
  const id = typeof account === 'string' ? account : account.id;
  const now = Date.parse(await ctx.control.advanceClock(id, 1));
  if (!Number.isFinite(now)) return;
  const into = (now / 1000) % WINDOW_SECONDS;
  if (into > 1) await ctx.advanceClock(id, Math.ceil(WINDOW_SECONDS - into));
}

/**
 * Moves the account clock past the minute of everything sent since
 * `sentAt` (`performance.now()` before the first of it): by then, under any
 * reading of "per minute", none of it counts any more.
 */
export async function pastTheMinuteOf(
  ctx: CheckContext,
  account: TestAccount | string,
  sentAt: number,
): Promise<void> {
  const elapsed = Math.ceil((performance.now() - sentAt) / 1000);
  await ctx.advanceClock(account, WINDOW_SECONDS + elapsed + 1);
}

/** A fresh key's first 429 of a class, with the sender that provoked it. */
export interface Refusal {
  limit: LimitClass;
  key: Key;
  res: HttpResponse;
  send: () => Promise<HttpResponse>;
  /** `performance.now()` before the burst that provoked it. */
  sentAt: number;
}

/**
 * A fresh key (in `account`, else the check's own) uses up its allowance of
 * the class; answers its first 429. Without one, the check cannot judge what
 * rests on it: `not_verifiable`, naming the limit's own rule.
 */
export async function refusal(
  ctx: CheckContext,
  limit: LimitClass,
  account?: TestAccount,
): Promise<Refusal> {
  const key = await ctx.key(account ? { account } : {});
  const send = await sender(ctx, limit, key);
  // The burst in one minute of the account clock: one that crosses into the next fixed window
  // gets no 429 from it, and firstRefusal then sends one at a time for the rest of the new
  // window's allowance (300 reads one after another: 15 s through 50 ms of round-trip time).
  if (ctx.has('clock') && key.accountId !== undefined) await startOfAMinute(ctx, key.accountId);
  // Before the burst: the refusal was answered later, so the real time since bounds its age.
  const sentAt = performance.now();
  const res = await firstRefusal(ctx, limit.perMinute, send);
  if (!res) {
    ctx.notVerifiable(
      `no 429 came after ${2 * limit.perMinute + 1} ${limit.name} of one key: nothing to judge (see the ${limit.name} limit's own rule)`,
    );
  }
  return { limit, key, res, send, sentAt };
}

/** Sends `count` requests of the class with `send`; answers how many were refused, and the first. */
export async function allServed(
  ctx: CheckContext,
  count: number,
  send: () => Promise<HttpResponse>,
): Promise<{ refused: HttpResponse[] }> {
  const answers = await burst(ctx, count, send);
  return { refused: answers.filter((res) => res.status < 200 || res.status >= 300) };
}
