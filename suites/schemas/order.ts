import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { moneyAt } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';
import { moneySchema } from './money.js';
import { ShippingAddressSchema } from './shipping-address.js';
import { TimestampSchema } from './timestamp.js';

/**
 * Contract section 2: an order is `{id, external_id, status, items, total,
 * shipping_address, created_at, cancellable_until, livemode}`. The profile
 * moves the id, state, lines and total (`dialect.answers.order`,
 * `dialect.totals.order`, `dialect.money`) and names the states
 * (`dialect.orderStatuses`); the rest is the reference's, judged only by
 * DIALECT rules.
 */
export function orderSchema(
  dialect: Pick<Dialect, 'answers' | 'totals' | 'money' | 'orderStatuses'>,
): z.ZodType {
  const at = dialect.answers.order;
  const states = Object.values(dialect.orderStatuses) as [string, ...string[]];
  return objectAt([
    [at.id, z.string().min(1)],
    ['/external_id', z.string().min(1).max(64)],
    [at.status, z.enum(states)],
    [
      at.lines,
      z
        .array(
          objectAt([
            [at.lineSku, z.string().min(1)],
            [at.lineQuantity, z.number().int().min(1)],
          ]),
        )
        .min(1)
        .max(100),
    ],
    [dialect.totals.order, moneySchema(moneyAt(dialect.money, 'totals'))],
    ['/shipping_address', ShippingAddressSchema],
    ['/created_at', TimestampSchema],
    ['/cancellable_until', TimestampSchema],
    ['/livemode', z.boolean()],
  ]);
}
