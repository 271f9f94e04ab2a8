import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { dialectGap } from '../../lib/check/index.js';

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

/**
 * `requireSubresourcePath` where a 404 could also be the target's answer for
 * the order (a violation): a path the target serves refuses a token without
 * `orders:read` with 403 (section 5, rule 8), a path it does not serve
 * answers 404 whatever the token. Only the second ends not verifiable.
 */
export async function requireServedSubresource(
  ctx: CheckContext,
  key: Key,
  path: string,
  res: HttpResponse,
  name: 'shipments' | 'invoice',
  what: string,
): Promise<void> {
  if (res.status !== 404 && res.status !== 405) return;
  const unscoped = await ctx.api(key, ['catalog:read']).get(path);
  if (unscoped.status !== 403) requireSubresourcePath(res, name, what);
}
