import type { CheckContext, HttpResponse, Key, OrderLine } from '../../lib/check/index.js';
import {
  centsIn,
  dialectGap,
  HarnessError,
  moneyAt,
  quoteBody,
  valueAt,
} from '../../lib/check/index.js';
import type { OrderCatalog } from './catalog.js';
import { requireQuoteBodyTaken } from './quote-refusal.js';

/**
 * Totals are read from the target, never added up by the suite: the limits
 * of sections 3 and 4 apply to an order's total, and a server may add
 * shipping (the document leaves prices "not shown"). The dialect says where
 * an answer shows its total and in which money format.
 */
export function orderTotal(ctx: CheckContext, order: unknown): number | undefined {
  return centsIn(moneyAt(ctx.dialect.money, 'totals'), valueAt(order, ctx.dialect.totals.order));
}

/**
 * The total the target quotes for these lines, in cents. A quote is read to
 * tell whether shipping puts an order over the account's maximum order value,
 * so a target may refuse it for that very maximum (the document sets it for
 * orders; a quote that applies it too is no violation): a quote of the body
 * the dialect probe saw taken and refused 422 is asked again with the
 * account's maximum lifted for that one request (control API), then put
 * back. Without the control API that ends the check not verifiable (it
 * lacks the capability); a quote refused otherwise is a set-up failure
 * (READ-10 judges quotes); a total the dialect does not locate ends the
 * check not verifiable, naming the field.
 */
export async function quotedTotal(
  ctx: CheckContext,
  key: Key,
  catalog: OrderCatalog,
  items: OrderLine[],
): Promise<number> {
  const send = () => ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog, items));
  let res = await send();
  requireQuoteBodyTaken(ctx, res, 'a quote to read the total of an order');
  if (res.status === 422 && catalog.maxOrderValue !== undefined) {
    res = await underLiftedMaximum(ctx, key, catalog.maxOrderValue, res, send);
  }
  if (res.status < 200 || res.status >= 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not get a quote to read the total of an order: HTTP ${res.status} (evidence #${res.exchange})`,
    );
  }
  const money = moneyAt(ctx.dialect.money, 'totals');
  const total = centsIn(money, valueAt(res.json, ctx.dialect.totals.quote));
  if (total === undefined) {
    throw dialectGap(
      `the quote shows no total at ${ctx.dialect.totals.quote} as ${money.format} money`,
      'dialect.totals.quote (or dialect.money.totals)',
      res.exchange,
    );
  }
  return total;
}

/** A far higher maximum than any check's order: no quote of one is over it. */
const LIFTED_MAXIMUM = 100_000_000;

/** The quote again, the account's maximum order value lifted meanwhile and then put back. */
async function underLiftedMaximum(
  ctx: CheckContext,
  key: Key,
  maximum: number,
  refused: HttpResponse,
  send: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  if (key.accountId === undefined || !ctx.has('accounts')) {
    return ctx.notVerifiable(
      `a quote of valid lines, meant to read their total with shipping, was answered 422 (evidence #${refused.exchange}); perhaps for the maximum order value, which only an account of the check's own can lift for the quote`,
      ['accounts'],
    );
  }
  const account = key.accountId;
  await ctx.control.updateAccount(account, {
    limits: { max_order_value: Math.max(LIFTED_MAXIMUM, maximum * 10) },
  });
  try {
    const res = await send();
    if (res.status >= 200 && res.status < 300)
      ctx.note(
        `the target refused the quote under the account's maximum order value (evidence #${refused.exchange}) and took it with the maximum lifted: its total was read that way`,
      );
    return res;
  } finally {
    await ctx.control.updateAccount(account, { limits: { max_order_value: maximum } });
  }
}
