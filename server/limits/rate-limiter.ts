import { RATE_WINDOW_MS } from '../config/api.js';

/** §8 rate classes: reads (GET), writes (POST, PATCH, DELETE) and token requests. */
export type RateClass = 'read' | 'write' | 'token';

/** §8: reads are GET (and HEAD); writes are POST, PATCH and DELETE. */
export function rateClassOf(method: string): RateClass {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1 (contract §2). */
  resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
  touchedAt: number;
}

/**
 * Contract §2: fixed 60-second windows per key and class, on the account clock
 * (so advancing the clock by a minute opens a new window). Windows start at
 * whole minutes of that clock. Only allowed requests count; a refused one
 * (429) does not use up the next window. In memory: a restart forgets the
 * counts, which only ever lets a client through sooner.
 */
export class RateLimiter {
  /** By key, then class: no `key|class` string built and hashed on every request. */
  readonly #windows = new Map<string, Map<RateClass, Window>>();

  take(keyId: string, rateClass: RateClass, limit: number, now: number): RateDecision {
    const start = now - (now % RATE_WINDOW_MS);
    let windows = this.#windows.get(keyId);
    if (windows === undefined) {
      windows = new Map();
      this.#windows.set(keyId, windows);
    }
    let window = windows.get(rateClass);
    if (window === undefined || window.start !== start) {
      window = { start, count: 0, touchedAt: 0 };
      windows.set(rateClass, window);
    }
    window.touchedAt = Date.now();
    const resetSeconds = Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
  }

  /** Forgets windows nobody touched for two minutes of real time. */
  sweep(realNow: number): void {
    for (const [keyId, windows] of this.#windows) {
      for (const [rateClass, window] of windows) {
        if (window.touchedAt < realNow - 2 * RATE_WINDOW_MS) windows.delete(rateClass);
      }
      if (windows.size === 0) this.#windows.delete(keyId);
    }
  }
}
