import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { externalIdIn, idIn, NotVerifiable, walkList } from '../../lib/check/index.js';

/**
 * The ids of the orders holding this `external_id`, found by walking
 * `GET /orders` through the dialect's list envelope. Undefined when the list
 * cannot be walked to its end within `maxPages` (or is not where the profile
 * says): the caller then says what it could not verify. `pages`, when
 * given, gets every page read (for a judgement over them as data).
 */
export async function orderIdsWithExternalId(
  ctx: CheckContext,
  key: Key,
  externalId: string,
  maxPages = 20,
  pages?: HttpResponse[],
): Promise<string[] | undefined> {
  const ids: string[] = [];
  const list = { operation: 'orderList', path: ctx.path('orders'), kind: 'order' } as const;
  try {
    const walk = await walkList(
      ctx.api(key),
      ctx.dialect,
      list,
      (items, res) => {
        pages?.push(res);
        for (const order of items) {
          const id = idIn(ctx.dialect, 'order', order);
          if (externalIdIn(order) === externalId && id !== undefined) ids.push(id);
        }
      },
      { maxPages },
    );
    return walk.end === 'complete' ? ids : undefined;
  } catch (error) {
    if (error instanceof NotVerifiable) return undefined;
    throw error;
  }
}
