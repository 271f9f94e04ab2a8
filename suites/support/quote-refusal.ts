import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { dialectGap } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';

/**
 * A quote of valid lines answered 422 `validation_failed`. The API document
 * shows no quote body (contract section 2 gives the reference's), so when the
 * dialect probe did not see the target take the profile's quote body, the
 * refusal may say only that the profile is not the target's: the check ends
 * `not_verifiable`, naming `dialect.quoteBody`. When the probe saw it taken,
 * the body is the target's own and the refusal is the target's: it is left
 * to the check, which judges it on its rule (or, where the quote is only a
 * step, as that step's failure). Any other answer is left to the check too.
 */
export function requireQuoteBodyTaken(
  ctx: Pick<CheckContext, 'dialectSeen'>,
  res: HttpResponse,
  what: string,
): void {
  if (res.status !== 422 || problemCode(res) !== 'validation_failed') return;
  if (ctx.dialectSeen.includes('quoteBody')) return;
  throw dialectGap(
    `${what} was answered 422 validation_failed, and the dialect probe did not see the target take a quote of the profile's body: the target may not take that body`,
    'dialect.quoteBody',
    res.exchange,
  );
}
