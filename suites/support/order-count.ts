import type { CheckContext, Key } from '../../lib/check/index.js';

/**
 * The ids of the orders holding this `external_id`, found by walking
 * `GET /orders` (contract section 2 lists: `limit`, `starting_after`,
 * `has_more`). Undefined when the list cannot be walked to its end within
 * `maxPages`: the caller then says what it could not verify.
 */
export async function orderIdsWithExternalId(
  ctx: CheckContext,
  key: Key,
  externalId: string,
  maxPages = 20,
): Promise<string[] | undefined> {
  const client = ctx.api(key);
  const ids: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await client.get(ctx.path('orders'), {
      limit: '100',
      ...(after ? { starting_after: after } : {}),
    });
    const body = res.json as { data?: unknown; has_more?: unknown } | undefined;
    if (res.status !== 200 || !Array.isArray(body?.data)) return undefined;
    for (const order of body.data as { id?: unknown; external_id?: unknown }[]) {
      if (order.external_id === externalId && typeof order.id === 'string') ids.push(order.id);
    }
    const last = body.data.at(-1) as { id?: unknown } | undefined;
    if (body.has_more !== true || typeof last?.id !== 'string') return ids;
    after = last.id;
  }
  return undefined;
}
