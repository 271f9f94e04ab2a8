import type { AppContext } from '../context.js';

/** Per app: `account|mode|external_id` of orders refused with 402. */
const declined = new WeakMap<AppContext, Set<string>>();

function declinedOf(ctx: AppContext): Set<string> {
  let set = declined.get(ctx);
  if (!set) {
    set = new Set();
    declined.set(ctx, set);
  }
  return set;
}

/**
 * `declined-external-id-kept`: a server that reserves the external_id before
 * it charges, and keeps the reservation when the charge fails (§4 idempotency
 * rule 5 says no order exists after a 402).
 */
export function rememberDeclined(ctx: AppContext, entry: string): void {
  declinedOf(ctx).add(entry);
}

export function wasDeclined(ctx: AppContext, entry: string): boolean {
  return declinedOf(ctx).has(entry);
}
