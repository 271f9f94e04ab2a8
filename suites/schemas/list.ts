import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';

/**
 * A list answer in the dialect's envelope (`dialect.list`; contract section
 * 2: `{"data": [...], "has_more": bool}`): the items at `items`, a boolean at
 * `hasMore` when the dialect has one.
 */
export function listOf(dialect: Pick<Dialect, 'list'>, item: z.ZodType): z.ZodType {
  const { items, hasMore } = dialect.list;
  return objectAt([
    [items, z.array(item)],
    ...(hasMore === null ? [] : [[hasMore, z.boolean()] as const]),
  ]);
}
