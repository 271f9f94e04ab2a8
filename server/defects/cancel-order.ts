import { ApiProblem } from '../problems/api-problem.js';
import { type CancelBehaviour, correctCancel, productionStarted } from '../routes/orders-cancel.js';
import type { HasDefect } from './catalogue.js';

const HOUR_MS = 3_600_000;

/**
 * The cancel decisions (routes/orders-cancel.ts `CancelBehaviour`) of a
 * defective server, with the §3 cancellation defects switched in; plugged in as
 * `ctx.hooks.cancelOrder` only when defects are on.
 * (`cancel-scope-not-enforced` is the bearer gate's, defects/bearer-gate.ts.)
 */
export function defectiveCancel(hasDefect: HasDefect): Partial<CancelBehaviour> {
  return {
    stateRefusal: (order, now) => {
      if (order.status === 'cancelled' && hasDefect('cancel-twice')) return undefined;
      const started = order.status !== 'received' && order.status !== 'cancelled';
      if (started && hasDefect('cancel-after-production')) return undefined;
      if (
        hasDefect('cancel-refused-first-hour') &&
        order.status === 'received' &&
        now - order.createdAt < HOUR_MS
      ) {
        return productionStarted();
      }
      return started && hasDefect('cancel-production-detail-window')
        ? new ApiProblem('not_cancellable', 'The 24-hour cancel window has closed.')
        : correctCancel.stateRefusal(order, now);
    },
    windowClosesAt: (order) =>
      hasDefect('cancel-after-window')
        ? Number.POSITIVE_INFINITY
        : correctCancel.windowClosesAt(order) - (hasDefect('cancel-window-23h') ? HOUR_MS : 0),
    windowClosed: (closesAt) => {
      const closed = correctCancel.windowClosed(closesAt);
      return hasDefect('cancel-window-wrong-code')
        ? new ApiProblem('validation_failed', closed.detail, {
            errors: [{ detail: closed.detail }],
          })
        : closed;
    },
  };
}
