import type { CheckContext, HttpResponse } from '../../lib/check/index.js';

/**
 * One step of a model-based sequence: when the target disagrees with the
 * model, record it and end this sequence (a CheckStopped, which the
 * property treats as this run failing), because every later step would be
 * judged against a model that no longer matches.
 */
export function expectModelStep(
  ctx: CheckContext,
  agrees: boolean,
  step: { toString(): string },
  res: HttpResponse,
  expected: string,
  holds?: { pointer: string; equals: unknown }[],
): void {
  if (agrees) {
    ctx.judged();
    return;
  }
  const code = (res.json as { code?: unknown } | undefined)?.code;
  ctx.stop({
    code: 'STATE',
    pointer: '/status',
    expected,
    received: `HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}`,
    message: `${step.toString()}: the target answered HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}, the model expected ${expected}`,
    exchange: res.exchange,
    ...(holds ? { holds } : {}),
  });
}
