import type { CheckContext, HttpResponse } from '../../lib/check/index.js';

/**
 * Section 3: `not_cancellable` has three causes and "detail says which". A
 * shipped order's production has started, and a detail may say so by naming
 * the shipping (`shipped`: production's cause, in either words).
 */
export type NotCancellableCause = 'window' | 'production' | 'already_cancelled' | 'shipped';

/** Words that name each cause. A detail must name its own cause and none of the others'. */
const SAYS: Record<NotCancellableCause, RegExp> = {
  window: /window|24[\s-]*hours?|expired|too late/i,
  production: /production|producing|manufactur/i,
  already_cancelled: /already|previously cancel/i,
  shipped: /production|producing|manufactur|shipped|shipping|dispatched/i,
};

/** The causes a detail must not name beside its own (`already` also says "already started"). */
const EXCLUDED: Record<NotCancellableCause, NotCancellableCause[]> = {
  window: ['production', 'already_cancelled'],
  production: ['window'],
  already_cancelled: ['window', 'production'],
  shipped: ['window'],
};

export function expectDetailSays(
  ctx: CheckContext,
  res: HttpResponse,
  cause: NotCancellableCause,
): boolean {
  const detail = (res.json as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === 'string' ? detail : '';
  const others = EXCLUDED[cause];
  return ctx.expectTrue(SAYS[cause].test(text) && !others.some((other) => SAYS[other].test(text)), {
    code: 'VALUE',
    pointer: '/body/detail',
    expected: `a detail saying the cause: ${cause === 'shipped' ? 'production started (shipped)' : cause.replace('_', ' ')}`,
    received: detail ?? '(missing)',
    message: `not_cancellable's detail does not say the cause is ${cause.replace('_', ' ')}`,
    exchange: res.exchange,
  });
}
