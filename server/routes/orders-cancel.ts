import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import { checkWritable } from '../auth/service-state.js';
import type { AppContext } from '../context.js';
import type { Order } from '../domain/order.js';
import { rfc3339 } from '../domain/time.js';
import { faultPoint } from '../faults/fault-point.js';
import { refuseQuery } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { orderView } from '../views/order.js';
import { findOrder, type OrderReadBehaviour } from './orders-read.js';

/** §3: production of the order has started, so it can no longer be cancelled. */
export function productionStarted(): ApiProblem {
  return new ApiProblem(
    'not_cancellable',
    'Production of the order has started; it can no longer be cancelled.',
  );
}

/** The steps of a cancel (server/behaviour.ts part `cancel`); `correctCancel` is the reference's. */
export interface CancelBehaviour {
  /** §3: why an order in this state cannot be cancelled at `now`, or undefined. */
  stateRefusal(order: Order, now: number): ApiProblem | undefined;
  /** §3: when the order's 24-hour cancel window closes (account clock). */
  windowClosesAt(order: Order): number;
  /** §3: what a cancel after the window closed is answered with. */
  windowClosed(closesAt: number): ApiProblem;
  /** Cancels the order of the request, or refuses (the steps above), holding the account's lock. */
  cancel: typeof cancelOrder;
}

/**
 * Cancels the order the request names in ONE write transaction holding the
 * account's write lock (store.lockAccount), so that the order's state is
 * read and changed with no other cancel of it in between: of cancels that
 * race, one finds the order cancellable and every other finds it cancelled
 * (§3: "already cancelled" is 409 `not_cancellable`).
 */
async function cancelOrder(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  behave: CancelBehaviour,
  reads: OrderReadBehaviour,
): Promise<Order> {
  const { account, mode, now } = principalOf(request);
  return ctx.store.transaction(async () => {
    await ctx.store.lockAccount(account.id);
    const order = await findOrder(reads, request, request.params.id);
    const refused = behave.stateRefusal(order, now);
    if (refused) throw refused;
    const closesAt = behave.windowClosesAt(order);
    if (now > closesAt) throw behave.windowClosed(closesAt);
    await faultPoint(ctx, request, account.id, 'before_commit');
    const next = await ctx.store.orders.setStatus(order, 'cancelled', now);
    await ctx.store.events.record(account.id, mode, 'order.cancelled', now, orderView(next));
    return next;
  });
}

export const correctCancel: CancelBehaviour = {
  stateRefusal: (order) => {
    if (order.status === 'cancelled') {
      return new ApiProblem('not_cancellable', 'The order is already cancelled.');
    }
    return order.status === 'received' ? undefined : productionStarted();
  },
  windowClosesAt: (order) => order.cancellableUntil,
  windowClosed: (closesAt) =>
    new ApiProblem('not_cancellable', `The 24-hour cancel window closed at ${rfc3339(closesAt)}.`),
  cancel: cancelOrder,
};

/**
 * §3 order cancellation, §4 `POST /orders/{id}/cancel` (scope orders:write),
 * contract §2: no body; 200 with the cancelled order. Refused with 409
 * `not_cancellable` when already cancelled, production started, or the
 * 24-hour window (account clock) closed; `detail` says which.
 */
export function orderCancelRoutes(
  ctx: AppContext,
  gate: TokenGate,
  behave: CancelBehaviour,
  reads: OrderReadBehaviour,
) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post<{ Params: { id: string } }>(
      '/orders/:id/cancel',
      { onRequest: gate('cancelOrder') },
      async (request) => {
        refuseQuery(request);
        const { account } = principalOf(request);
        checkWritable(account);
        const cancelled = await behave.cancel(ctx, request, behave, reads);
        await faultPoint(ctx, request, account.id, 'after_commit');
        return orderView(cancelled);
      },
    );
  };
}
