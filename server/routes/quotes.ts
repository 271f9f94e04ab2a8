import type { FastifyInstance } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { type Principal, principalOf } from '../auth/principal.js';
import { checkWritable } from '../auth/service-state.js';
import { QUOTE_TTL_MS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { newId } from '../domain/ids.js';
import { faultPoint, readFaultPoint } from '../faults/fault-point.js';
import { readJsonBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { checkNotSuspended } from '../orders/account-state.js';
import { priceItems } from '../orders/price-items.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import type { Quote } from '../store/quotes.js';
import { parseBody, QuoteBodySchema, toShippingAddress } from '../validation/order-body.js';
import { quoteView } from '../views/quote.js';

/** The steps of the quote routes (server/behaviour.ts part `quotes`); `correctQuotes` is the reference's. */
export interface QuoteBehaviour {
  /** §7 `read_only`: refuses a new quote while the account is read-only. */
  checkWritable(account: Account): void;
  /** The quote with this id, in the caller's account and mode only (§7). */
  lookupQuote(principal: Principal, id: string): Promise<Quote | undefined>;
}

export function correctQuotes(ctx: AppContext): QuoteBehaviour {
  return {
    checkWritable,
    lookupQuote: ({ account, mode }, id) => ctx.store.quotes.get(account.id, mode, id),
  };
}

/**
 * §4 `POST /quotes` and `GET /quotes/{id}` (scope catalog:read). Contract §2:
 * body `{items, shipping_address}`, answer 201 `{id, items, subtotal,
 * shipping, total, expires_at}`. A quote applies §4 rules 1–4; the reference
 * charges no shipping unless started with a flat charge (AppOptions.shippingCents). Paused by `read_only` (§7) and, in the reference, by
 * suspension (contract §2 readings).
 */
export function quoteRoutes(ctx: AppContext, gate: TokenGate, behave: QuoteBehaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = gate('quotes');

    app.post('/quotes', { onRequest }, async (request, reply) => {
      refuseQuery(request);
      const { account, mode, now } = principalOf(request);
      checkNotSuspended(account, 'new orders and quotes');
      behave.checkWritable(account);
      const input = parseBody(QuoteBodySchema, readJsonBody(request));
      const priced = priceItems(account.settings, input.items, input.shipping_address.country);
      const quote: Quote = {
        id: newId('quo'),
        mode,
        items: priced.items,
        shippingAddress: toShippingAddress(input.shipping_address),
        subtotal: priced.total,
        shipping: ctx.shippingCents,
        total: priced.total + ctx.shippingCents,
        createdAt: now,
        expiresAt: now + QUOTE_TTL_MS,
      };
      await ctx.store.transaction(async () => {
        await faultPoint(ctx, request, account.id, 'before_commit');
        await ctx.store.quotes.insert(account.id, quote);
      });
      await faultPoint(ctx, request, account.id, 'after_commit');
      return reply
        .code(201)
        .header('location', `${request.url.split('?')[0]}/${quote.id}`)
        .send(quoteView(quote));
    });

    app.get<{ Params: { id: string } }>('/quotes/:id', { onRequest }, async (request) => {
      refuseQuery(request);
      const principal = principalOf(request);
      await readFaultPoint(ctx, request, principal.account.id);
      const quote = await behave.lookupQuote(principal, request.params.id);
      if (!quote)
        throw new ApiProblem('not_found', 'No quote with this id in this account and mode.');
      return quoteView(quote);
    });
  };
}
