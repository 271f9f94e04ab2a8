import { z } from 'zod';
import { MoneySchema } from './money.js';
import { OrderItemSchema } from './order-item.js';
import { ShippingAddressSchema } from './shipping-address.js';
import { TimestampSchema } from './timestamp.js';

/** Contract section 2: order states. */
export const ORDER_STATUSES = ['received', 'in_production', 'shipped', 'cancelled'] as const;

/**
 * Contract section 2: an order is `{id, external_id, status, items, total,
 * shipping_address, created_at, cancellable_until, livemode}`.
 */
export const OrderSchema = z.object({
  id: z.string().min(1),
  external_id: z.string().min(1).max(64),
  status: z.enum(ORDER_STATUSES),
  items: z.array(OrderItemSchema).min(1).max(100),
  total: MoneySchema,
  shipping_address: ShippingAddressSchema,
  created_at: TimestampSchema,
  cancellable_until: TimestampSchema,
  livemode: z.boolean(),
});
export type Order = z.infer<typeof OrderSchema>;

/** What every order answer has whatever the dialect: an id and the partner's external_id (section 2). */
export const OrderIdentitySchema = z.looseObject({
  id: z.string().min(1),
  external_id: z.string().min(1),
});
