import type { CheckContext, Condition, HttpResponse, Key } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';
import { getAccountWith, issuedToken, requestToken } from './token-request.js';

export interface KeyRefusal {
  /** Where the refusal came: the token request, or the API call made with the token it issued. */
  at: 'token' | 'call';
  res: HttpResponse;
  /** At the call: the token request that issued its token. */
  token?: HttpResponse;
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
  return { at: 'call', res: await getAccountWith(ctx, token), token: tokenRes };
}

/** Judges a refusal `keyRefusalOf` answered: the right status and code, wherever it came. */
export function judgeKeyRefused(
  ctx: CheckContext,
  refusal: KeyRefusal,
  expected: { status: number; code: string },
): KeyRefusal {
  // As data, the refusal wherever it comes: a reproduction against a server that refuses at the
  // token request (the call then not sent) judges the same rule as one that refuses at the call.
  const refused: Condition = {
    all: [
      { at: '/status', is: { equals: expected.status } },
      { at: '/body/code', is: { equals: expected.code } },
    ],
  };
  const either = refusal.token
    ? { exchanges: [refusal.token.exchange, refusal.res.exchange], must: refused }
    : undefined;
  if (!either) {
    ctx.expectProblem(refusal.res, expected);
    return refusal;
  }
  ctx.expectTrue(
    problemCode(refusal.res) === expected.code && refusal.res.status === expected.status,
    {
      code: 'STATUS',
      pointer: '/status',
      expected: `${expected.status} ${expected.code}, at the token request or the call`,
      received: `a token issued, then HTTP ${refusal.res.status}${problemCode(refusal.res) ? ` ${problemCode(refusal.res)}` : ''} at the call`,
      message: `the key was not refused: its token request issued a token and the call was answered HTTP ${refusal.res.status}`,
      exchange: refusal.res.exchange,
      exchanges: either.exchanges,
      must: { count: either.must, min: 1 },
    },
  );
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
