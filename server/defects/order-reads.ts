import type { AppContext } from '../context.js';
import type { Order } from '../domain/order.js';
import { ApiProblem } from '../problems/api-problem.js';
import { correctOrderReads, type OrderReadBehaviour } from '../routes/orders-read.js';
import { orderByExternalIdAnywhere, ordersOfEveryAccount } from './leaks-across-accounts.js';
import { orderInAnyAccount } from './lookups.js';

const DAY_MS = 24 * 3_600_000;

/**
 * `external-id-lookup-forgets-after-day`: the order, if placed within the last
 * 24 hours of the account clock, as a lookup index that expires entries sees it.
 */
export function placedInLastDay(order: Order, now: number): Order | undefined {
  return now - order.createdAt <= DAY_MS ? order : undefined;
}

/**
 * The order lookups (routes/orders-read.ts `OrderReadBehaviour`, also used by
 * cancel) of a defective server: plugged in as `ctx.hooks.orderReads` only
 * when defects are on.
 */
export function defectiveOrderReads(ctx: AppContext): Partial<OrderReadBehaviour> {
  const correct = correctOrderReads(ctx);
  const { hasDefect } = ctx;
  const seesLive = hasDefect('test-key-sees-live-orders');
  return {
    lookupOrder: async (principal, id) =>
      (hasDefect('other-account-orders-visible')
        ? await orderInAnyAccount(ctx.store, principal.mode, id)
        : undefined) ??
      (await correct.lookupOrder(principal, id)) ??
      (principal.mode === 'test' && seesLive
        ? await correct.lookupOrder({ ...principal, mode: 'live' }, id)
        : undefined),
    notFound: () =>
      hasDefect('unknown-id-as-422')
        ? new ApiProblem('validation_failed', 'The order id is not valid.', {
            errors: [{ detail: 'No order has this id.', pointer: 'id' }],
          })
        : correct.notFound(),
    externalIdOf: (request) =>
      hasDefect('by-external-id-undecoded')
        ? (request.url.split('?')[0]?.split('/').pop() ?? '')
        : correct.externalIdOf(request),
    lookupByExternalId: async (principal, externalId) => {
      const found =
        (await correct.lookupByExternalId(principal, externalId)) ??
        (principal.mode === 'test' && seesLive
          ? await correct.lookupByExternalId({ ...principal, mode: 'live' }, externalId)
          : undefined) ??
        (hasDefect('other-account-found-by-external-id')
          ? await orderByExternalIdAnywhere(ctx, principal, externalId)
          : undefined);
      return found && hasDefect('external-id-lookup-forgets-after-day')
        ? placedInLastDay(found, principal.now)
        : found;
    },
    listOrders: async (principal, before, limit) => {
      const own = await correct.listOrders(principal, before, limit);
      const acrossAccounts = hasDefect('other-account-orders-listed')
        ? await ordersOfEveryAccount(ctx, principal, own, (other) =>
            correct.listOrders(other, before, limit),
          )
        : own;
      // --- `test-key-lists-live-orders` (issue 26): a test key's list shows the live orders first.
      const rows =
        principal.mode === 'test' && hasDefect('test-key-lists-live-orders')
          ? [
              ...(await correct.listOrders({ ...principal, mode: 'live' }, before, limit)),
              ...acrossAccounts,
            ]
          : acrossAccounts;
      return hasDefect('order-list-omits-newest') ? rows.slice(1) : rows;
    },
    invoiceOf: (orderId) =>
      hasDefect('invoice-never-issued') ? Promise.resolve(undefined) : correct.invoiceOf(orderId),
  };
}
