import { z } from 'zod';
import { MoneySchema } from './money.js';

/**
 * `GET /account`. Section 2 of the API document lists what it shows (whether
 * the key is live, the billing method, the order limits under `limits`, the
 * key's scopes); the field names are the reference dialect's (contract
 * section 2): `{id, name, livemode, billing_method, limits: {max_order_value,
 * max_orders_per_day}, scopes}`.
 */
export const AccountSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  livemode: z.boolean(),
  billing_method: z.string().min(1),
  limits: z.object({
    max_order_value: MoneySchema,
    max_orders_per_day: z.number().int().nonnegative(),
  }),
  scopes: z.array(z.string()),
});
export type Account = z.infer<typeof AccountSchema>;
