import { z } from 'zod';

/** Contract section 2, order body: `{name, line1, line2?, city, state, postal_code, country}`. */
export const ShippingAddressSchema = z.object({
  name: z.string().min(1),
  line1: z.string().min(1),
  line2: z.string().optional(),
  city: z.string().min(1),
  state: z.string().min(1),
  postal_code: z.string().min(1),
  country: z.string().min(1),
});
