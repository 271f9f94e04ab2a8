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

/**
 * `retry-after-missing`, `retry-after-too-short`: a 429's headers as the
 * defect bends them. Five seconds short, so that waiting what it says lands
 * inside the same window whatever the moment of the refusal.
 */
export function bentRetryAfter(
  ctx: AppContext,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const { 'retry-after': seconds, ...rest } = headers;
  if (ctx.hasDefect('retry-after-missing') || seconds === undefined) return rest;
  if (ctx.hasDefect('retry-after-too-short'))
    return { ...rest, 'retry-after': String(Math.max(0, Number(seconds) - 5)) };
  return { ...headers };
}
