import { z } from 'zod';

/** Contract section 2: money is `{"amount": <integer cents>, "currency": "USD"}`. */
export const MoneySchema = z.object({
  amount: z.number().int(),
  currency: z.literal('USD'),
});
export type Money = z.infer<typeof MoneySchema>;
