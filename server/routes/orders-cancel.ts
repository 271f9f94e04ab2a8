import type { FastifyInstance } from 'fastify';
import { requireToken } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import { checkWritable } from '../auth/service-state.js';
import type { AppContext } from '../context.js';
import { rfc3339 } from '../domain/time.js';
import { faultPoint } from '../faults/fault-point.js';
import { refuseQuery } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { orderView } from '../views/order.js';
import { findOrder } from './orders-read.js';

/**
 * §3 order cancellation, §4 `POST /orders/{id}/cancel` (scope orders:write),
 * contract §2: no body; 200 with the cancelled order. Refused with 409
 * `not_cancellable` when already cancelled, production started, or the
 * 24-hour window (account clock) closed; `detail` says which.
 */
export function orderCancelRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post<{ Params: { id: string } }>(
      '/orders/:id/cancel',
      {
        onRequest: requireToken(ctx, 'orders:write'),
      },
      // The test-only defect catalogue, when switched on, cancels its own way.
      ctx.hooks.cancelOrder ??
        (async (request) => {
          refuseQuery(request);
          const { account, mode, now } = principalOf(request);
          checkWritable(account);
          const cancelled = ctx.store.transaction(() => {
            const order = findOrder(ctx, request, request.params.id);
            if (order.status === 'cancelled') {
              throw new ApiProblem('not_cancellable', 'The order is already cancelled.');
            }
            if (order.status !== 'received') {
              throw new ApiProblem(
                'not_cancellable',
                'Production of the order has started; it can no longer be cancelled.',
              );
            }
            if (now > order.cancellableUntil) {
              throw new ApiProblem(
                'not_cancellable',
                `The 24-hour cancel window closed at ${rfc3339(order.cancellableUntil)}.`,
              );
            }
            faultPoint(ctx, request, account.id, 'before_commit');
            const next = ctx.store.orders.setStatus(order, 'cancelled', now);
            ctx.store.events.record(account.id, mode, 'order.cancelled', now, orderView(next));
            return next;
          });
          faultPoint(ctx, request, account.id, 'after_commit');
          return orderView(cancelled);
        }),
    );
  };
}
