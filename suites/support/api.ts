import type { ApiClient, CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { HarnessError, NotVerifiable } from '../../lib/violations/harness-error.js';

/**
 * `ctx.api(key)` for checks whose rule is not the rate limit. A 429 there
 * says nothing about the rule under test, so it must never count as its
 * violation: with only a partner key (no clock to move past the window, and
 * its limits shared by every check of the run) the check is not verifiable;
 * in an account the run made, where the suite paces its writes, a 429 means
 * the set-up went wrong.
 */
export function api(ctx: CheckContext, key: Key, scopes?: string[]): ApiClient {
  const inner = ctx.api(key, scopes);
  const guard = (res: HttpResponse): HttpResponse => {
    if (res.status !== 429) return res;
    const wait = res.header('retry-after');
    const why = `the target rate-limited the key (429${wait ? `, Retry-After ${wait} s` : ''}, evidence #${res.exchange})`;
    if (key.accountId === undefined) {
      throw new NotVerifiable(
        `${why}: a partner key's limits are shared by every check of the run and the run has no clock to move past the window; run fewer areas with --only`,
        ['clock'],
      );
    }
    throw new HarnessError('HARNESS_SETUP', why);
  };
  return {
    send: async (spec) => guard(await inner.send(spec)),
    get: async (path, query) => guard(await inner.get(path, query)),
    post: async (path, json, headers) => guard(await inner.post(path, json, headers)),
    delete: async (path) => guard(await inner.delete(path)),
  };
}
