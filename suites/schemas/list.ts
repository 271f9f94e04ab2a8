import { z } from 'zod';

/** Contract section 2: lists are `{"data": [...], "has_more": bool}`. */
export function listOf<S extends z.ZodType>(item: S) {
  return z.object({ data: z.array(item), has_more: z.boolean() });
}

/** A list whose items are only known to be objects with an id (for paging and counting). */
export const IdListSchema = listOf(z.looseObject({ id: z.string().min(1) }));
