import type { CheckContext } from '../../lib/check/index.js';
import type { Ordering } from './ordering.js';
import { WritePacer } from './write-pacer.js';

/** One lane of a generated property that orders: a key, its account and catalog, a pacer for the key's writes. */
export type OrderingLane = Ordering & { pacer: WritePacer };

/**
 * The lanes of `ctx.propertyInLanes` for a property that places orders: the
 * ordering the check already made serves the first lane, and each further
 * lane makes its own with `more` (an account and key of its own, so that
 * lanes share no clock or rate-limit window), each with a pacer that keeps
 * its key under the write limit.
 */
export function orderingLanes(
  ctx: CheckContext,
  first: Ordering,
  more: () => Promise<Ordering>,
): () => Promise<OrderingLane> {
  let firstTaken = false;
  return async () => {
    const lane = firstTaken ? await more() : first;
    firstTaken = true;
    return { ...lane, pacer: new WritePacer(ctx, lane.account) };
  };
}
