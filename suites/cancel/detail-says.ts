import type { CheckContext, HttpResponse } from '../../lib/check/index.js';

/** Section 3: `not_cancellable` has three causes and "detail says which". */
export type NotCancellableCause = 'window' | 'production' | 'already_cancelled';

/** Words that name each cause. A detail must name its own cause and none of the others'. */
const SAYS: Record<NotCancellableCause, RegExp> = {
  window: /window|24[\s-]*hours?|expired|too late/i,
  production: /production|producing|manufactur/i,
  already_cancelled: /already|previously cancel/i,
};

export function expectDetailSays(
  ctx: CheckContext,
  res: HttpResponse,
  cause: NotCancellableCause,
): boolean {
  const detail = (res.json as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === 'string' ? detail : '';
  const others = (Object.keys(SAYS) as NotCancellableCause[]).filter(
    (other) => other !== cause && !(cause === 'production' && other === 'already_cancelled'),
  );
  return ctx.expectTrue(SAYS[cause].test(text) && !others.some((other) => SAYS[other].test(text)), {
    code: 'VALUE',
    pointer: '/body/detail',
    expected: `a detail saying the cause: ${cause.replace('_', ' ')}`,
    received: detail ?? '(missing)',
    message: `not_cancellable's detail does not say the cause is ${cause.replace('_', ' ')}`,
    exchange: res.exchange,
  });
}
