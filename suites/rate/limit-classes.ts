import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { quoteBodyOf } from '../../lib/check/index.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import { requestToken } from '../support/token-request.js';

/** One limit of section 8: how many requests a key may send a minute, and one such request. */
export interface LimitClass {
  name: 'reads' | 'writes' | 'token requests';
  perMinute: number;
  /** Prepares what the requests need (a token, a body) and answers how to send one with `key`. */
  sender(ctx: CheckContext, key: Key): Promise<() => Promise<HttpResponse>>;
}

/** Reads: `GET /account`, which any valid token may make (section 4). */
export const READS: LimitClass = {
  name: 'reads',
  perMinute: 300,
  async sender(ctx, key) {
    const token = await ctx.token(key);
    const path = ctx.path('account');
    return () => ctx.send({ method: 'GET', path, auth: { kind: 'bearer', token } });
  },
};

/** Writes: `POST /quotes`, a write that places nothing and creates nothing that counts against a limit. */
export const WRITES: LimitClass = {
  name: 'writes',
  perMinute: 60,
  async sender(ctx, key) {
    const token = await ctx.token(key);
    const order = await ctx.orderBody();
    const json = quoteBodyOf(ctx.dialect, order);
    const path = ctx.path('quotes');
    let first = true;
    return async () => {
      const res = await ctx.send({ method: 'POST', path, json, auth: { kind: 'bearer', token } });
      // The first write tells whether the target takes the profile's quote body at all.
      if (first) requireQuoteBodyTaken(ctx, res, 'a quote sent as a write');
      first = false;
      return res;
    };
  },
};

/** Token requests: `POST /oauth/token` (section 5, rule 5). */
export const TOKENS: LimitClass = {
  name: 'token requests',
  perMinute: 20,
  async sender(ctx, key) {
    return () => requestToken(ctx, key);
  },
};
