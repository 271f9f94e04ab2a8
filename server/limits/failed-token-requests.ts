import { FAILED_TOKEN_REQUESTS_PER_ADDRESS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';

/**
 * A token request whose credentials failed still costs: against the key's
 * own §8 token budget (20 a minute by default) when the Access Key ID is
 * known, else against its client address. Past the budget the refusal is
 * 429 with `Retry-After` instead of 401, so guessing secrets is slow.
 * Returns the 429 problem, or undefined while within the budget.
 */
export async function failedTokenRequestLimit(
  ctx: AppContext,
  key: ApiKey | undefined,
  address: string,
): Promise<ApiProblem | undefined> {
  const account = key === undefined ? undefined : await ctx.store.accounts.get(key.accountId);
  const decision =
    key !== undefined && account !== undefined
      ? await ctx.rateLimiter.take(
          key.id,
          'token',
          account.settings.rate_limits.token,
          ctx.now(account),
        )
      : await ctx.rateLimiter.take(
          `address:${address}`,
          'token',
          FAILED_TOKEN_REQUESTS_PER_ADDRESS,
          Date.now(),
        );
  if (decision.allowed) return undefined;
  return new ApiProblem(
    'rate_limited',
    `Too many failed token requests. Retry after ${decision.resetSeconds} seconds.`,
    { headers: { 'retry-after': String(decision.resetSeconds) } },
  );
}
