import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { moneyAt } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';
import { moneySchema } from './money.js';

/**
 * `GET /account`. Section 2 of the API document lists what it shows (whether
 * the key is live, the billing method, the order limits under `limits`, the
 * key's scopes); the names are the profile's (`dialect.accountFields`, the
 * reference dialect's by default: `{id, name, livemode, billing_method,
 * limits: {max_order_value, max_orders_per_day}, scopes}`) and the money its
 * format.
 */
export function accountSchema(dialect: Pick<Dialect, 'accountFields' | 'money'>): z.ZodType {
  const at = dialect.accountFields;
  return objectAt([
    ['/id', z.string().min(1)],
    ['/name', z.string()],
    [at.livemode, z.boolean()],
    [at.billingMethod, z.string().min(1)],
    [at.maxOrderValue, moneySchema(moneyAt(dialect.money, 'maxOrderValue'))],
    [at.maxOrdersPerDay, z.number().int().nonnegative()],
    [at.scopes, z.array(z.string())],
  ]);
}
