import type { CheckContext, Key } from '../../lib/check/index.js';

/**
 * After a refused order: no order holds its `external_id` (section 4, `GET
 * /orders/by-external-id/{external_id}` answers 404 not_found).
 */
export async function expectNoOrder(
  ctx: CheckContext,
  key: Key,
  externalId: string,
  why: string,
): Promise<boolean> {
  const found = await ctx.api(key).get(ctx.path('orderByExternalId', { external_id: externalId }));
  return ctx.expectTrue(found.status === 404, {
    code: 'STATE',
    pointer: '/status',
    expected: '404: no order with that external_id',
    received: found.status,
    message: `${why}: the order exists all the same`,
    exchange: found.exchange,
  });
}
