import type { CheckContext } from '../../lib/check/index.js';

/**
 * How many generated inputs a property that writes may try. In an account
 * the run made, the run's number; with only the partner key, at most `cap`,
 * because the key's write limit (60 a minute, section 8) and its account's
 * orders-per-day limit are shared with every other check and cannot be reset.
 */
export function propertyRuns(ctx: CheckContext, ownAccount: boolean, cap = 10): number {
  if (ownAccount) return ctx.config.numRuns;
  const runs = Math.min(ctx.config.numRuns, cap);
  ctx.note(`partner key only: ${runs} generated inputs instead of ${ctx.config.numRuns}`);
  return runs;
}
