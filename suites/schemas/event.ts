import { z } from 'zod';
import { TimestampSchema } from './timestamp.js';

/** Contract section 2: an event is `{id, type, created_at, livemode, data: {object}}`. */
export const EventSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created_at: TimestampSchema,
  livemode: z.boolean(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type ApiEvent = z.infer<typeof EventSchema>;
