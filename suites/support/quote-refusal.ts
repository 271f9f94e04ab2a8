import type { HttpResponse } from '../../lib/check/index.js';
import { dialectGap } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';

/**
 * Stops the check `not_verifiable` when the target refused a quote of valid
 * lines with 422 `validation_failed`: the API document shows no quote body
 * (contract section 2 gives the reference's), so the refusal says the
 * profile's `quoteBody` is not the target's, not that a rule was broken.
 * Any other answer is left to the check.
 */
export function requireQuoteBodyTaken(res: HttpResponse, what: string): void {
  if (res.status === 422 && problemCode(res) === 'validation_failed') {
    throw dialectGap(
      `${what} was answered 422 validation_failed: the target does not take the quote body of the profile`,
      'dialect.quoteBody',
      res.exchange,
    );
  }
}
