import type { CheckContext, Key } from '../../lib/check/index.js';
import { requireId, succeeded } from '../../lib/check/index.js';
import { allAtOnce } from './all-at-once.js';
import { orderIdsWithExternalId } from './order-count.js';

/**
 * That no order holds `externalId` (sections 4 and 7: "no order exists"),
 * seen through `GET /orders/by-external-id/{external_id}`: 404.
 */
export async function expectNoOrder(
  ctx: CheckContext,
  key: Key,
  externalId: string,
  after: string,
): Promise<boolean> {
  const [none] = await expectNoOrders(ctx, [{ key, externalId, after }]);
  return none ?? false;
}

/** `expectNoOrder` for several orders (each seen with its key), looked up at once and judged in their order. */
export async function expectNoOrders(
  ctx: CheckContext,
  orders: readonly { key: Key; externalId: string; after: string }[],
): Promise<boolean[]> {
  const found = await allAtOnce(orders, ({ key, externalId }) =>
    ctx.api(key).get(ctx.path('orderByExternalId', { external_id: externalId })),
  );
  return orders.map(({ externalId, after }, i) => {
    const res = found[i] as (typeof found)[number];
    return ctx.expectTrue(res.status === 404, {
      code: 'STATE',
      pointer: '/status',
      expected: 404,
      received: res.status,
      message: `after ${after} an order with external_id ${externalId} exists`,
      exchange: res.exchange,
    });
  });
}

/**
 * That exactly one order holds `externalId`, and it is `id`: by external id,
 * and (in an account the run made, where the list is short) by walking the
 * order list, which would show a second order under the same external_id.
 * Answers whether both held.
 */
export async function expectSingleOrder(
  ctx: CheckContext,
  key: Key,
  externalId: string,
  id: string,
  after: string,
): Promise<boolean> {
  const res = await ctx.api(key).get(ctx.path('orderByExternalId', { external_id: externalId }));
  const ok = succeeded(ctx.dialect, 'orderByExternalId', res.status);
  const found = ok
    ? requireId(ctx.dialect, 'order', res.json, 'the order found by external id', res.exchange)
    : undefined;
  const single = ctx.expectTrue(ok && found === id, {
    code: 'STATE',
    pointer: `/body${ctx.dialect.answers.order.id}`,
    expected: id,
    received: res.status < 300 ? found : `HTTP ${res.status}`,
    message: `after ${after} the order with external_id ${externalId} is not ${id}`,
    exchange: res.exchange,
  });
  if (key.accountId === undefined) return single;
  const ids = await orderIdsWithExternalId(ctx, key, externalId);
  if (ids === undefined) {
    ctx.note('the order list could not be walked: counted by external id only');
    return single;
  }
  const listed = ctx.expectTrue(ids.length === 1 && ids[0] === id, {
    code: 'STATE',
    pointer: '/orders',
    expected: [id],
    received: ids,
    message: `after ${after} the account lists ${ids.length} orders with external_id ${externalId}, expected exactly one`,
  });
  return single && listed;
}
