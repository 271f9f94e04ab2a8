import type { CheckContext, HttpResponse } from '../../lib/check/index.js';

/**
 * A refused token request: a 4xx answer that carries no `access_token`.
 * `what` names the request for the report ("wrong secret").
 */
export function expectNoToken(ctx: CheckContext, res: HttpResponse, what: string): boolean {
  const body = res.json as { access_token?: unknown } | undefined;
  const refused = res.status >= 400 && res.status < 500;
  const leaked = body !== undefined && typeof body === 'object' && 'access_token' in body;
  const statusOk = ctx.expectTrue(refused, {
    code: 'STATUS',
    pointer: '/status',
    expected: 'a 4xx refusal',
    received: res.status,
    message: `${what}: the token request must be refused, got HTTP ${res.status}`,
    exchange: res.exchange,
  });
  const bodyOk = ctx.expectTrue(!leaked, {
    code: 'STATE',
    pointer: '/body/access_token',
    expected: '(absent)',
    received: '(a token, not shown)',
    message: `${what}: a token was issued`,
    exchange: res.exchange,
  });
  return statusOk && bodyOk;
}
