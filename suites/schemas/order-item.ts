import { z } from 'zod';

/** Contract section 2, order body: an item is `{sku, quantity}`. */
export const OrderItemSchema = z.object({
  sku: z.string().min(1),
  quantity: z.number().int().min(1),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;
