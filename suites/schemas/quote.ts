import { z } from 'zod';
import { MoneySchema } from './money.js';
import { TimestampSchema } from './timestamp.js';

/** Contract section 2: a quote is `{id, items, subtotal, shipping, total, expires_at}`. */
export const QuoteSchema = z.object({
  id: z.string().min(1),
  items: z
    .array(z.looseObject({ sku: z.string().min(1), quantity: z.number().int().min(1) }))
    .min(1),
  subtotal: MoneySchema,
  shipping: MoneySchema,
  total: MoneySchema,
  expires_at: TimestampSchema,
});
export type Quote = z.infer<typeof QuoteSchema>;
