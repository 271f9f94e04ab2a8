import type { ApiClient, CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { throttledReason } from '../../lib/client/throttle.js';
import { NotVerifiable } from '../../lib/violations/harness-error.js';

/**
 * `ctx.api(key)` for checks whose rule is not the rate limit. A 429 there
 * says nothing about the rule under test, so it must never count as its
 * violation (nor as a harness error): the check ends `not_verifiable`,
 * "throttled" (lib/client/throttle.ts). The fixture already retries such a
 * 429 within bounds; this guard catches what reaches a check all the same.
 */
export function api(ctx: CheckContext, key: Key, scopes?: string[]): ApiClient {
  const inner = ctx.api(key, scopes);
  const guard = (res: HttpResponse): HttpResponse => {
    if (res.status !== 429) return res;
    const wait = res.header('retry-after');
    // Reached only where the fixture does not retry (a rate-limit check's set-up): same outcome.
    throw new NotVerifiable(throttledReason('a request of the set-up', wait, res.exchange, 1));
  };
  return {
    send: async (spec) => guard(await inner.send(spec)),
    get: async (path, query) => guard(await inner.get(path, query)),
    post: async (path, json, headers) => guard(await inner.post(path, json, headers)),
    delete: async (path) => guard(await inner.delete(path)),
  };
}
