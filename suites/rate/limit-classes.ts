import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { quoteBodyOf } from '../../lib/check/index.js';
import type { OperationName } from '../../lib/target/dialect.js';
import { requestToken } from '../support/token-request.js';

/** One limit of section 8: how many requests a key may send a minute, and one such request. */
export interface LimitClass {
  name: 'reads' | 'writes' | 'token requests';
  perMinute: number;
  /** The operation sent: a success is its status in the dialect. */
  operation: OperationName;
  /** Prepares what the requests need (a token, a body) and answers how to send one with `key`. */
  sender(ctx: CheckContext, key: Key): Promise<() => Promise<HttpResponse>>;
}

/** Reads: `GET /account`, which any valid token may make (section 4). */
export const READS: LimitClass = {
  name: 'reads',
  perMinute: 300,
  operation: 'account',
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
  operation: 'quoteCreate',
  async sender(ctx, key) {
    const token = await ctx.token(key);
    const order = await ctx.orderBody();
    const json = quoteBodyOf(ctx.dialect, order);
    const path = ctx.path('quotes');
    return () => ctx.send({ method: 'POST', path, json, auth: { kind: 'bearer', token } });
  },
};

/** Token requests: `POST /oauth/token` (section 5, rule 5). */
export const TOKENS: LimitClass = {
  name: 'token requests',
  perMinute: 20,
  operation: 'token',
  async sender(ctx, key) {
    return () => requestToken(ctx, key);
  },
};
