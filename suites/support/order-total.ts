import type { CheckContext, Key, OrderLine } from '../../lib/check/index.js';
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
 * The total the target quotes for these lines, in cents. A quote the target
 * refuses is a set-up failure (READ-10/READ-11 judge quotes); a total the
 * dialect does not locate ends the check not verifiable, naming the field.
 */
export async function quotedTotal(
  ctx: CheckContext,
  key: Key,
  catalog: OrderCatalog,
  items: OrderLine[],
): Promise<number> {
  const res = await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog, items));
  requireQuoteBodyTaken(res, 'a quote to read the total of an order');
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
