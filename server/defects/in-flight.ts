import type { AppContext } from '../context.js';

/**
 * `idem-race-unserialized`: the requests being processed, per app, by
 * account, mode and Idempotency-Key. The defect treats a request whose key
 * is already in flight as a new one instead of waiting to replay it.
 */
const inFlight = new WeakMap<AppContext, Map<string, number>>();

function counts(ctx: AppContext): Map<string, number> {
  let map = inFlight.get(ctx);
  if (!map) {
    map = new Map();
    inFlight.set(ctx, map);
  }
  return map;
}

/** Marks `id` in flight; answers whether another request with it already was, and a release. */
export function enterFlight(ctx: AppContext, id: string): { raced: boolean; leave: () => void } {
  const map = counts(ctx);
  const before = map.get(id) ?? 0;
  map.set(id, before + 1);
  return {
    raced: before > 0,
    leave: () => {
      const now = (map.get(id) ?? 1) - 1;
      if (now <= 0) map.delete(id);
      else map.set(id, now);
    },
  };
}
