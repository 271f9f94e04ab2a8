import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { moneyAt } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';
import { moneySchema } from './money.js';
import { TimestampSchema } from './timestamp.js';

/**
 * Contract section 2: a quote is `{id, items, subtotal, shipping, total,
 * expires_at}`. The profile moves the id and the total, says the money
 * format, and the lines are where its quote body puts them; the rest is the reference's (READ-11, a DIALECT rule).
 */
export function quoteSchema(
  dialect: Pick<Dialect, 'answers' | 'totals' | 'money' | 'quoteBody'>,
): z.ZodType {
  const money = moneySchema(moneyAt(dialect.money, 'totals'));
  return objectAt([
    [dialect.answers.quote.id, z.string().min(1)],
    // The lines as the quote body sent them (the reference answers them the same way).
    [
      dialect.quoteBody.items,
      z
        .array(
          objectAt([
            [dialect.quoteBody.sku, z.string().min(1)],
            [dialect.quoteBody.quantity, z.number().int().min(1)],
          ]),
        )
        .min(1),
    ],
    ['/subtotal', money],
    ['/shipping', money],
    [dialect.totals.quote, money],
    ['/expires_at', TimestampSchema],
  ]);
}
