import { FAILED_TOKEN_REQUESTS_PER_ADDRESS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';

/**
 * A token request whose credentials failed still costs, so guessing secrets
 * is slow (docs/sandbox.md, "Failed token requests"):
 * - every failure spends its client address's budget (60 a minute), whatever
 *   key it names;
 * - a failure naming a known Access Key ID also spends the budget of that key
 *   *from that address* (the key's §8 token limit, 20 a minute by default, on
 *   the account clock).
 * Past either, the refusal is 429 with `Retry-After` instead of 401. Failures
 * never spend the key's own budget, which only successful requests use
 * (routes/token.ts): an Access Key ID is no secret, and failures sent by
 * anyone else, from anywhere else, cannot keep its owner from a token.
 * Returns the 429 problem, or undefined while within both budgets.
 */
export async function failedTokenRequestLimit(
  ctx: AppContext,
  key: ApiKey | undefined,
  address: string,
): Promise<ApiProblem | undefined> {
  const perAddress = await ctx.rateLimiter.take(
    `address:${address}`,
    'token',
    FAILED_TOKEN_REQUESTS_PER_ADDRESS,
    Date.now(),
  );
  if (!perAddress.allowed) return refusal(perAddress.resetSeconds);
  const account = key === undefined ? undefined : await ctx.store.accounts.get(key.accountId);
  if (key === undefined || account === undefined) return undefined;
  const perKeyAndAddress = await ctx.rateLimiter.take(
    `failed:${key.id}@${address}`,
    'token',
    account.settings.rate_limits.token,
    ctx.now(account),
  );
  return perKeyAndAddress.allowed ? undefined : refusal(perKeyAndAddress.resetSeconds);
}

function refusal(resetSeconds: number): ApiProblem {
  return new ApiProblem(
    'rate_limited',
    `Too many failed token requests. Retry after ${resetSeconds} seconds.`,
    { headers: { 'retry-after': String(resetSeconds) } },
  );
}
