import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { getAccountWith, issuedToken, requestToken } from './token-request.js';

export interface KeyRefusal {
  /** Where the refusal came: the token request, or the API call made with the token it issued. */
  at: 'token' | 'call';
  res: HttpResponse;
}

/**
 * Key-level refusals (`ip_not_allowed`, `api_not_enabled`,
 * `sandbox_not_enabled`) may come at the token request or at the API call
 * (target contract, "Readings the suite holds to"): no protected call may
 * succeed, and whichever answer refuses must carry the right code.
 */
export async function expectKeyRefused(
  ctx: CheckContext,
  key: Key,
  expected: { status: number; code: string },
): Promise<KeyRefusal> {
  const tokenRes = await requestToken(ctx, key);
  const token = issuedToken(tokenRes);
  if (token === undefined) {
    ctx.expectProblem(tokenRes, expected);
    return { at: 'token', res: tokenRes };
  }
  const call = await getAccountWith(ctx, token);
  ctx.expectProblem(call, expected);
  return { at: 'call', res: call };
}
