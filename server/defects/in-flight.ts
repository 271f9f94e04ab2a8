import type { AppContext } from '../context.js';
import { appMemory } from './app-memory.js';

/**
 * `idem-race-unserialized`: the requests being processed, per app, by
 * account, mode and Idempotency-Key. The defect treats a request whose key
 * is already in flight as a new one instead of waiting to replay it.
 */

/**
 * How long the first request of a key stays in flight before it is written,
 * like a check-then-insert with a slow call between. The correct server has
 * no such gap (one synchronous transaction), so identical racers can only
 * overlap here if the first is held: long enough for racers sent together to
 * arrive even on new connections of a loaded machine. Only the defective
 * server of this one defect ever waits.
 */
const RACE_WINDOW_MS = 150;

export function raceWindow(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RACE_WINDOW_MS));
}
const counts = appMemory(() => new Map<string, number>());

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
