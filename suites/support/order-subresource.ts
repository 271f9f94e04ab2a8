import { dialectGap } from '../../lib/check/answers.js';
import type { HttpResponse } from '../../lib/check/index.js';

/**
 * Stops the check `not_verifiable` when the shipments or the invoice of an
 * order that has them answer 404 or 405: the API document does not show
 * their paths (contract section 2 gives the reference's), so the answer says
 * the profile's `dialect.paths.<name>` is not the target's.
 */
export function requireSubresourcePath(
  res: HttpResponse,
  name: 'shipments' | 'invoice',
  what: string,
): void {
  if (res.status === 404 || res.status === 405) {
    throw dialectGap(
      `${what} answered HTTP ${res.status}: the target shows no ${name} at the profile's path`,
      `dialect.paths.${name}`,
      res.exchange,
    );
  }
}
