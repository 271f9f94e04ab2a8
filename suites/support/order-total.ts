import type { CheckContext, Key } from '../../lib/check/index.js';
import { HarnessError } from '../../lib/violations/harness-error.js';
import { valueAt } from '../read/account-fields.js';
import type { OrderCatalog } from './catalog.js';
import type { OrderLine } from './order-body.js';
import { quoteBody } from './quote-body.js';

/**
 * Totals are read from the target, never added up by the suite: the limits
 * of sections 3 and 4 apply to an order's total, and a server may add
 * shipping (the document leaves prices "not shown"). The dialect says where
 * an answer shows its total; money is `{amount, currency}` (contract
 * section 2), a bare integer of cents, or a decimal string of dollars.
 */
export function centsIn(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value)) {
    return Math.round(Number(value) * 100);
  }
  const amount = (value as { amount?: unknown } | null | undefined)?.amount;
  return amount === undefined ? undefined : centsIn(amount);
}

/** The total an order answer shows, in cents; undefined when the dialect's place holds no money. */
export function orderTotal(ctx: CheckContext, order: unknown): number | undefined {
  return centsIn(valueAt(order, ctx.dialect.totals.order));
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
  if (res.status < 200 || res.status >= 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not get a quote to read the total of an order: HTTP ${res.status} (evidence #${res.exchange})`,
    );
  }
  const total = centsIn(valueAt(res.json, ctx.dialect.totals.quote));
  if (total === undefined) {
    return ctx.notVerifiable(
      `the quote shows no total at ${ctx.dialect.totals.quote} (evidence #${res.exchange}); the check needs the total the target charges: set dialect.totals.quote in the profile`,
    );
  }
  return total;
}
