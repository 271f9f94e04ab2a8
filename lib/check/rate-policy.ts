import type { HttpResponse } from '../client/types.js';
import { HarnessError, NotVerifiable } from '../violations/harness-error.js';

/** Retries of one request after a 429 on the partner key, each after its Retry-After (at most 65 s). */
const PARTNER_RETRIES = 2;

export interface RatePolicyScope {
  /** The check's rule is a rate limit (area RATE): the 429 is its subject, left alone. */
  rateRule: boolean;
  /** The request used the partner key: its limits are shared by every check of the run. */
  partner: boolean;
  note(text: string): void;
  /** Waits; injectable so that tests move no real time. */
  wait?(ms: number): Promise<void>;
}

/**
 * The one answer to a 429 met through `ctx.api` by a check whose rule is not
 * a rate limit. A 429 there says nothing about the rule under test, so it is
 * never its violation. On the partner key the request waits `Retry-After`
 * and is sent again (section 7: "Wait, then retry"), twice at most; after
 * that the check is not verifiable (the run has no clock to move past the
 * window). On a key the run made, whose writes the suite paces, a 429 means
 * the set-up went wrong: a harness error.
 */
export async function withRatePolicy(
  send: () => Promise<HttpResponse>,
  scope: RatePolicyScope,
): Promise<HttpResponse> {
  const wait = scope.wait ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (scope.rateRule || res.status !== 429) return res;
    const header = res.header('retry-after');
    if (scope.partner && attempt < PARTNER_RETRIES) {
      const seconds = Math.min(Math.max(Number(header) || 1, 1), 65);
      scope.note(
        `the target answered 429 (evidence #${res.exchange}); retried after Retry-After ${seconds} s`,
      );
      await wait(seconds * 1000);
      continue;
    }
    const why = `the target rate-limited the key (429${header ? `, Retry-After ${header} s` : ''}, evidence #${res.exchange})`;
    if (scope.partner) {
      throw new NotVerifiable(
        `${why}: a partner key's limits are shared by every check of the run and the run has no clock to move past the window; run fewer areas with --only`,
        ['clock'],
      );
    }
    throw new HarnessError('HARNESS_SETUP', why);
  }
}
