import { retryWait, throttledReason } from '../client/throttle.js';
import type { HttpResponse } from '../client/types.js';
import { announceWait } from '../client/wait-channel.js';
import { NotVerifiable } from '../violations/harness-error.js';

export interface RatePolicyScope {
  /** The 429 is the check's subject (a rate limit, or an error it provokes): left alone. */
  rateRule: boolean;
  /** The request used the partner key: its limits are shared by every check of the run. */
  partner: boolean;
  /** The request in words, for the reason and the progress line: "POST /orders". */
  what?: string;
  note(text: string): void;
  /** Waits; injectable so that tests move no real time. */
  wait?(ms: number): Promise<void>;
}

/**
 * The one answer to a 429 met by a check whose subject it is not: through
 * `ctx.api`, `ctx.send` (outside the RATE and ERR areas, which provoke 429s
 * on purpose) and the token requests of the set-up. A 429 there says nothing about the rule under test, so it is
 * never its violation, nor a harness error. The request waits `Retry-After`
 * and is sent again (section 7: "Wait, then retry") within the bounds of
 * lib/client/throttle.ts (a partner key's check may wait a window out; a
 * check with the control API has one minute in all); past them the check
 * could not judge its rule: `not_verifiable`, "throttled".
 */
export async function withRatePolicy(
  send: () => Promise<HttpResponse>,
  scope: RatePolicyScope,
): Promise<HttpResponse> {
  const wait = scope.wait ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const what = scope.what ?? 'a request';
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (scope.rateRule || res.status !== 429) return res;
    const header = res.header('retry-after');
    const seconds = retryWait(header, attempt, scope.partner ? 'paced' : 'control');
    if (seconds === undefined) {
      throw new NotVerifiable(throttledReason(what, header, res.exchange, attempt + 1));
    }
    scope.note(
      `the target answered 429 (evidence #${res.exchange}); retried after Retry-After ${seconds} s`,
    );
    announceWait({ what: `Retry-After of ${what} (429)`, ms: seconds * 1000 });
    await wait(seconds * 1000);
  }
}
