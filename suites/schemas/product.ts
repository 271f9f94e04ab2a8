import { z } from 'zod';
import { MoneySchema } from './money.js';

/** Contract section 2, catalog: a product is `{sku, name, unit_price, min_quantity, ships_by_freight}`. */
export const ProductSchema = z.object({
  sku: z.string().min(1),
  name: z.string().min(1),
  unit_price: MoneySchema,
  min_quantity: z.number().int().min(1),
  ships_by_freight: z.boolean(),
});
export type ApiProduct = z.infer<typeof ProductSchema>;
