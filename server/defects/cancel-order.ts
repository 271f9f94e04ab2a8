import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import { checkWritable } from '../auth/service-state.js';
import type { AppContext } from '../context.js';
import { rfc3339 } from '../domain/time.js';
import { faultPoint } from '../faults/fault-point.js';
import { refuseQuery } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { findOrder } from '../routes/orders-read.js';
import { orderView } from '../views/order.js';

/**
 * POST /orders/{id}/cancel of a defective server (routes/orders-cancel.ts with
 * the §3 cancellation defects switched in): plugged in as
 * `ctx.hooks.cancelOrder` only when defects are on. (`cancel-scope-not-enforced`
 * is the bearer gate's, defects/bearer-gate.ts.)
 */
export async function defectiveCancelOrder(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { id: string } }>,
): Promise<unknown> {
  refuseQuery(request);
  const { account, mode, now } = principalOf(request);
  checkWritable(account);
  const cancelled = ctx.store.transaction(() => {
    const order = findOrder(ctx, request, request.params.id);
    const again = order.status === 'cancelled' && ctx.hasDefect('cancel-twice');
    if (order.status === 'cancelled' && !again) {
      throw new ApiProblem('not_cancellable', 'The order is already cancelled.');
    }
    if (order.status !== 'received' && !again && !ctx.hasDefect('cancel-after-production')) {
      throw new ApiProblem(
        'not_cancellable',
        ctx.hasDefect('cancel-production-detail-window')
          ? 'The 24-hour cancel window has closed.'
          : 'Production of the order has started; it can no longer be cancelled.',
      );
    }
    if (
      ctx.hasDefect('cancel-refused-first-hour') &&
      order.status === 'received' &&
      now - order.createdAt < 3_600_000
    ) {
      throw new ApiProblem(
        'not_cancellable',
        'Production of the order has started; it can no longer be cancelled.',
      );
    }
    const closesAt = ctx.hasDefect('cancel-window-23h')
      ? order.cancellableUntil - 3_600_000
      : order.cancellableUntil;
    if (now > closesAt && !ctx.hasDefect('cancel-after-window')) {
      const detail = `The 24-hour cancel window closed at ${rfc3339(closesAt)}.`;
      throw ctx.hasDefect('cancel-window-wrong-code')
        ? new ApiProblem('validation_failed', detail, { errors: [{ detail }] })
        : new ApiProblem('not_cancellable', detail);
    }
    faultPoint(ctx, request, account.id, 'before_commit');
    const next = ctx.store.orders.setStatus(order, 'cancelled', now);
    ctx.store.events.record(account.id, mode, 'order.cancelled', now, orderView(next));
    return next;
  });
  faultPoint(ctx, request, account.id, 'after_commit');
  return orderView(cancelled);
}
