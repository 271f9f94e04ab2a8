import type {
  CheckContext,
  Condition,
  HttpResponse,
  Key,
  RequestSpec,
} from '../../lib/check/index.js';
import { quoteBodyOf } from '../../lib/check/index.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import { tokenRequest } from '../support/token-request.js';

/** Section 7 and 8's refusal over a limit, as data: 429 rate_limited. */
export const RATE_LIMITED: Condition = {
  all: [
    { at: '/status', is: { equals: 429 } },
    { at: '/body/code', is: { equals: 'rate_limited' } },
  ],
};

/** One limit of section 8: how many requests a key may send a minute, and one such request. */
export interface LimitClass {
  name: 'reads' | 'writes' | 'token requests';
  perMinute: number;
  /**
   * Prepares what the requests need (a token, a body) and answers how to make
   * one request of the class with `key`, as often as asked: sent one by one
   * (`sender`) or racing (`CheckContext.raceRequests`).
   */
  requests(ctx: CheckContext, key: Key): Promise<() => RequestSpec>;
  /**
   * Whether an answer says only that the target does not take the request of
   * the profile's dialect (a quote body it refuses): then the check cannot
   * judge, and this throws `not_verifiable` naming the profile field.
   */
  requireTaken?(ctx: CheckContext, res: HttpResponse, what: string): void;
}

/** Reads: `GET /account`, which any valid token may make (section 4). */
export const READS: LimitClass = {
  name: 'reads',
  perMinute: 300,
  async requests(ctx, key) {
    const token = await ctx.token(key);
    const path = ctx.path('account');
    return () => ({ method: 'GET', path, auth: { kind: 'bearer', token } });
  },
};

/** Writes: `POST /quotes`, a write that places nothing and creates nothing that counts against a limit. */
export const WRITES: LimitClass = {
  name: 'writes',
  perMinute: 60,
  async requests(ctx, key) {
    const token = await ctx.token(key);
    const order = await ctx.orderBody(undefined, key.accountId);
    const json = quoteBodyOf(ctx.dialect, order);
    const path = ctx.path('quotes');
    return () => ({ method: 'POST', path, json, auth: { kind: 'bearer', token } });
  },
  requireTaken: requireQuoteBodyTaken,
};

/** Token requests: `POST /oauth/token` (section 5, rule 5). */
export const TOKENS: LimitClass = {
  name: 'token requests',
  perMinute: 20,
  async requests(ctx, key) {
    return () => tokenRequest(ctx, key);
  },
};

export const LIMITS: readonly LimitClass[] = [READS, WRITES, TOKENS];

/**
 * Sends requests of the class with `key` one by one: the first answer tells
 * whether the target takes the profile's request at all (`requireTaken`).
 */
export async function sender(
  ctx: CheckContext,
  limit: LimitClass,
  key: Key,
): Promise<() => Promise<HttpResponse>> {
  const next = await limit.requests(ctx, key);
  let first = true;
  return async () => {
    const res = await ctx.send(next());
    if (first) limit.requireTaken?.(ctx, res, `a request of the ${limit.name}`);
    first = false;
    return res;
  };
}
