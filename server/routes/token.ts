import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseBasic } from '../auth/basic.js';
import { checkKeyGates } from '../auth/key-gates.js';
import { checkAvailable } from '../auth/service-state.js';
import { basicChallenge } from '../auth/www-authenticate.js';
import { TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { hashSecret, secretMatches } from '../crypto/secret-hash.js';
import { newAccessToken } from '../domain/ids.js';
import { isScope } from '../domain/scopes.js';
import { readFormBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { failedTokenRequestLimit } from '../limits/failed-token-requests.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import type { RateDecision } from '../limits/rate-limiter.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';

/** Compared against when the Access Key ID is unknown, so that both failures take the same time. */
export const DUMMY_DIGEST = hashSecret('no such key');

export function badClient(): ApiProblem {
  // Contract §2: bad Basic credentials are 401 `unauthorized` with `WWW-Authenticate: Basic`.
  return new ApiProblem(
    'unauthorized',
    'Send the Access Key ID and Secret Key of an active key in the Authorization: Basic header.',
    { headers: { 'www-authenticate': basicChallenge() } },
  );
}

async function authenticateClient(
  ctx: AppContext,
  header: string | undefined,
  address: string,
): Promise<ApiKey> {
  const credentials = parseBasic(header);
  if (!credentials) throw (await failedTokenRequestLimit(ctx, undefined, address)) ?? badClient();
  const key = await ctx.store.keys.get(credentials.id);
  const matches = secretMatches(credentials.secret, key?.secretHash ?? DUMMY_DIGEST);
  // §3: a revoked key, or a rolled key's old secret, gets no token.
  if (!key || !matches || key.status !== 'active') {
    throw (await failedTokenRequestLimit(ctx, key, address)) ?? badClient();
  }
  return key;
}

/** §5.7: the key's scopes, or the subset asked for with `scope`; asking for more is 403 (contract §2). */
function grantedScopes(key: ApiKey, requested: string | null): string[] {
  const asked = (requested ?? '').split(' ').filter((s) => s !== '');
  if (asked.length === 0) return [...key.scopes];
  for (const scope of asked) {
    if (!isScope(scope) || !key.scopes.includes(scope)) {
      throw new ApiProblem('insufficient_scope', `The key does not carry the scope ${scope}.`, {
        requiredScope: scope,
      });
    }
  }
  return [...new Set(asked)];
}

/** §5.5: 429 once the key's token requests of this minute are spent. */
export function tokenLimitReached(decision: RateDecision): ApiProblem {
  return new ApiProblem(
    'rate_limited',
    `At most ${decision.limit} token requests a minute per key. Retry after ${decision.resetSeconds} seconds.`,
    { headers: { 'retry-after': String(decision.resetSeconds) } },
  );
}

/** RFC 6749 §5.2: grant_type must be client_credentials. */
export function checkGrantType(grantType: string | null): void {
  if (grantType === 'client_credentials') return;
  // RFC 6749 §3.2: a parameter sent without a value is treated as omitted.
  const missing = grantType === null || grantType === '';
  throw new ApiProblem(
    'validation_failed',
    missing
      ? 'The form field grant_type is required; its value is client_credentials.'
      : 'Only grant_type=client_credentials is supported.',
    {
      errors: [{ detail: 'grant_type must be client_credentials.', pointer: 'grant_type' }],
      oauthError: missing ? 'invalid_request' : 'unsupported_grant_type',
    },
  );
}

/** §2 access token response, not to be cached (RFC 6749 §5.1). */
export function sendToken(reply: FastifyReply, token: string, scopes: string[]): FastifyReply {
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
    access_token: token,
    token_type: 'Bearer',
    expires_in: TOKEN_TTL_SECONDS,
    scope: scopes.join(' '),
  });
}

async function issueToken(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const form = readFormBody(request);
  const key = await authenticateClient(ctx, request.headers.authorization, request.ip);
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw badClient();
  checkKeyGates(key, account, request.ip);
  checkAvailable(account);
  const now = ctx.now(account);
  // §5.5, contract §2: token requests count only against the token limit.
  const decision = await ctx.rateLimiter.take(
    key.id,
    'token',
    account.settings.rate_limits.token,
    now,
  );
  setRateLimitHeaders(reply, 'token', decision);
  if (!decision.allowed) throw tokenLimitReached(decision);
  checkGrantType(form.get('grant_type'));
  const scopes = grantedScopes(key, form.get('scope'));
  const token = newAccessToken();
  await ctx.store.tokens.insert(hashSecret(token), key.id, scopes.join(' '), now);
  return sendToken(reply, token, scopes);
}

/**
 * §4 POST /oauth/token (§5: OAuth 2.0 client credentials). The Secret Key
 * comes only in the Basic header (§5.4), at most 20 requests a minute per key
 * (§5.5), and the answer is the §2 access token response with
 * `Cache-Control: no-store` and no refresh token (RFC 6749 §4.4.3, §5.1).
 */
export function tokenRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    // The test-only defect catalogue, when switched on, issues tokens its own way.
    const issue = ctx.hooks.tokenRequest ?? issueToken;
    app.post('/oauth/token', { config: { oauth: true } }, (request, reply) =>
      issue(ctx, request, reply),
    );
  };
}
