import { ApiProblem } from '../problems/api-problem.js';
import { productionStarted } from '../routes/orders-cancel.js';
import { defectsOf } from './defect.js';

const HOUR_MS = 3_600_000;

/** §3 order cancellation. (`cancel-scope-not-enforced` is a scope defect: scope.ts.) */
export const CANCEL_DEFECTS = defectsOf('CANCEL', [
  {
    name: 'cancel-after-window',
    breaks: 'an order is cancelled after the 24-hour window',
    replaces: () => ({ cancel: { windowClosesAt: () => () => Number.POSITIVE_INFINITY } }),
  },
  {
    name: 'cancel-window-23h',
    breaks: 'the cancel window closes after 23 hours',
    replaces: () => ({
      cancel: { windowClosesAt: (closesAt) => (order) => closesAt(order) - HOUR_MS },
    }),
  },
  {
    name: 'cancel-window-wrong-code',
    breaks: 'a cancel after the window is answered 422 validation_failed',
    replaces: () => ({
      cancel: {
        windowClosed: (windowClosed) => (closesAt) => {
          const { detail } = windowClosed(closesAt);
          return new ApiProblem('validation_failed', detail, { errors: [{ detail }] });
        },
      },
    }),
  },
  {
    name: 'cancel-after-production',
    breaks: 'an order is cancelled after production started',
    replaces: () => ({
      cancel: {
        stateRefusal: (refusal) => (order, now) =>
          order.status !== 'received' && order.status !== 'cancelled'
            ? undefined
            : refusal(order, now),
      },
    }),
  },
  {
    name: 'cancel-production-detail-window',
    breaks: 'a cancel after production starts is said to be past the window',
    replaces: () => ({
      cancel: {
        stateRefusal: (refusal) => (order, now) =>
          order.status !== 'received' && order.status !== 'cancelled'
            ? new ApiProblem('not_cancellable', 'The 24-hour cancel window has closed.')
            : refusal(order, now),
      },
    }),
  },
  {
    name: 'cancel-twice',
    breaks: 'a cancelled order is cancelled again with 200',
    replaces: () => ({
      cancel: {
        stateRefusal: (refusal) => (order, now) =>
          order.status === 'cancelled' ? undefined : refusal(order, now),
      },
    }),
  },
  {
    name: 'cancel-refused-first-hour',
    breaks: 'an order is not cancellable in its first hour (production is said to have started)',
    replaces: () => ({
      cancel: {
        stateRefusal: (refusal) => (order, now) =>
          order.status === 'received' && now - order.createdAt < HOUR_MS
            ? productionStarted()
            : refusal(order, now),
      },
    }),
  },
  {
    // A server that refuses only orders whose status is "in production".
    name: 'cancel-after-shipping',
    breaks: 'a shipped order is cancelled',
    replaces: () => ({
      cancel: {
        stateRefusal: (refusal) => (order, now) =>
          order.status === 'shipped' ? undefined : refusal(order, now),
      },
    }),
  },
]);
