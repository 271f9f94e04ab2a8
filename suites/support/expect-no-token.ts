import type { CheckContext, Condition, HttpResponse } from '../../lib/check/index.js';

/** A refusal as data (both judgements read it whole): a 4xx that carries no `access_token`. */
const NO_TOKEN: Condition = {
  all: [
    { at: '/status', is: { between: [400, 499] } },
    { at: '/body/access_token', is: { absent: true } },
  ],
};

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
    must: NO_TOKEN,
  });
  const bodyOk = ctx.expectTrue(!leaked, {
    code: 'STATE',
    pointer: '/body/access_token',
    expected: '(absent)',
    received: '(a token, not shown)',
    message: `${what}: a token was issued`,
    exchange: res.exchange,
    must: NO_TOKEN,
  });
  return statusOk && bodyOk;
}
