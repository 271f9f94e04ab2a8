import type { AppContext } from '../context.js';
import { appMemory } from './app-memory.js';

/**
 * Rate-limit defects (§8). `token-refusal-blocks-calls` needs to remember,
 * per app, until when a key that was refused a token request is locked out.
 */
const lockedUntil = appMemory(() => new Map<string, number>());

export function lockOutKey(ctx: AppContext, keyId: string, until: number): void {
  lockedUntil(ctx).set(keyId, until);
}

/** Seconds the key stays locked out at `now` (account clock); 0 when it is not. */
export function lockedOutSeconds(ctx: AppContext, keyId: string, now: number): number {
  const until = lockedUntil(ctx).get(keyId) ?? 0;
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}
