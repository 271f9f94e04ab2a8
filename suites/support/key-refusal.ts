import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { getAccountWith, issuedToken, requestToken } from './token-request.js';

export interface KeyRefusal {
  /** Where the refusal came: the token request, or the API call made with the token it issued. */
  at: 'token' | 'call';
  res: HttpResponse;
}

/**
 * The answer that decides whether a key is refused: its token request when it
 * issues no token, else the API call made with the token. Sends only; several
 * keys may be asked at once and judged in order (`judgeKeyRefused`).
 */
export async function keyRefusalOf(ctx: CheckContext, key: Key): Promise<KeyRefusal> {
  const tokenRes = await requestToken(ctx, key);
  const token = issuedToken(tokenRes);
  if (token === undefined) return { at: 'token', res: tokenRes };
  return { at: 'call', res: await getAccountWith(ctx, token) };
}

/** Judges a refusal `keyRefusalOf` answered: the right status and code, wherever it came. */
export function judgeKeyRefused(
  ctx: CheckContext,
  refusal: KeyRefusal,
  expected: { status: number; code: string },
): KeyRefusal {
  ctx.expectProblem(refusal.res, expected);
  return refusal;
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
  return judgeKeyRefused(ctx, await keyRefusalOf(ctx, key), expected);
}
