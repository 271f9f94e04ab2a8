import type { FastifyInstance } from 'fastify';
import { parseBasic } from '../auth/basic.js';
import { checkKeyGates } from '../auth/key-gates.js';
import { checkAvailable, checkWritable } from '../auth/service-state.js';
import { basicChallenge } from '../auth/www-authenticate.js';
import { MAX_ACTIVE_KEYS, TOKEN_CHARS, TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { hashSecret, secretMatches } from '../crypto/secret-hash.js';
import { matchesReplacedSecret } from '../defects/key-memory.js';
import { bentRetryAfter, lockOutKey } from '../defects/rate.js';
import { rememberingRefusal } from '../defects/sticky-refusal.js';
import { firstTokenIssuedAt, jsonOnlyForm } from '../defects/tokens.js';
import { newAccessToken, randomBase62 } from '../domain/ids.js';
import { isScope } from '../domain/scopes.js';
import { readFormBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { failedTokenRequestLimit } from '../limits/failed-token-requests.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';

/** Compared against when the Access Key ID is unknown, so that both failures take the same time. */
const DUMMY_DIGEST = hashSecret('no such key');

function badClient(): ApiProblem {
  // Contract §2: bad Basic credentials are 401 `unauthorized` with `WWW-Authenticate: Basic`.
  return new ApiProblem(
    'unauthorized',
    'Send the Access Key ID and Secret Key of an active key in the Authorization: Basic header.',
    { headers: { 'www-authenticate': basicChallenge() } },
  );
}

function authenticateClient(ctx: AppContext, header: string | undefined, address: string): ApiKey {
  const credentials = parseBasic(header);
  if (!credentials) throw failedTokenRequestLimit(ctx, undefined, address) ?? badClient();
  const key = ctx.store.keys.get(credentials.id);
  const matches =
    secretMatches(credentials.secret, key?.secretHash ?? DUMMY_DIGEST) ||
    (key !== undefined &&
      ctx.hasDefect('roll-keeps-old-secret') &&
      matchesReplacedSecret(ctx, key.id, credentials.secret)) ||
    (key !== undefined && ctx.hasDefect('wrong-secret-accepted'));
  // §3: a revoked key, or a rolled key's old secret, gets no token.
  const revoked = key?.status !== 'active' && !ctx.hasDefect('revoked-key-issues-tokens');
  if (!key || !matches || revoked) throw failedTokenRequestLimit(ctx, key, address) ?? badClient();
  return key;
}

/** §5.7: the key's scopes, or the subset asked for with `scope`; asking for more is 403 (contract §2). */
function grantedScopes(ctx: AppContext, key: ApiKey, requested: string | null): string[] {
  const asked = (requested ?? '').split(' ').filter((s) => s !== '');
  if (asked.length === 0) {
    if (ctx.hasDefect('token-default-scopes-partial'))
      return key.scopes.filter((scope) => scope !== 'webhooks:manage');
    return [...key.scopes];
  }
  if (ctx.hasDefect('token-scope-beyond-key-granted')) {
    return [...new Set(asked.filter((scope) => (key.scopes as readonly string[]).includes(scope)))];
  }
  for (const scope of asked) {
    if (!isScope(scope) || !key.scopes.includes(scope)) {
      throw new ApiProblem('insufficient_scope', `The key does not carry the scope ${scope}.`, {
        requiredScope: scope,
      });
    }
  }
  if (ctx.hasDefect('token-scope-subset-ignored')) return [...key.scopes];
  return [...new Set(asked)];
}

/**
 * §4 POST /oauth/token (§5: OAuth 2.0 client credentials). The Secret Key
 * comes only in the Basic header (§5.4), at most 20 requests a minute per key
 * (§5.5), and the answer is the §2 access token response with
 * `Cache-Control: no-store` and no refresh token (RFC 6749 §4.4.3, §5.1).
 */
export function tokenRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/oauth/token', { config: { oauth: true } }, async (request, reply) => {
      refuseQuery(request);
      const form = ctx.hasDefect('token-form-body-ignored')
        ? jsonOnlyForm(request)
        : readFormBody(request);
      const key = authenticateClient(ctx, request.headers.authorization, request.ip);
      const account = ctx.store.accounts.get(key.accountId);
      if (!account) throw badClient();
      if (ctx.hasDefect('live-refusal-remembered')) {
        rememberingRefusal(ctx, key.id, () =>
          checkKeyGates(key, account, request.ip, ctx.hasDefect),
        );
      } else {
        checkKeyGates(key, account, request.ip, ctx.hasDefect);
      }
      if (!ctx.hasDefect('unavailable-ignored')) checkAvailable(account);
      if (ctx.hasDefect('read-only-blocks-tokens')) checkWritable(account);
      if (
        ctx.hasDefect('ten-keys-no-tokens') &&
        ctx.store.keys.countActive(account.id) >= MAX_ACTIVE_KEYS
      ) {
        throw badClient();
      }
      const now = ctx.now(account);
      // §5.5, contract §2: token requests count only against the token limit.
      const decision = ctx.rateLimiter.take(
        ctx.hasDefect('rate-limit-per-account') ? account.id : key.id,
        'token',
        account.settings.rate_limits.token,
        now,
      );
      setRateLimitHeaders(reply, 'token', decision);
      if (!decision.allowed && !ctx.hasDefect('token-limit-off')) {
        if (ctx.hasDefect('token-refusal-blocks-calls'))
          lockOutKey(ctx, key.id, now + decision.resetSeconds * 1000);
        throw new ApiProblem(
          'rate_limited',
          `At most ${decision.limit} token requests a minute per key. Retry after ${decision.resetSeconds} seconds.`,
          { headers: bentRetryAfter(ctx, { 'retry-after': String(decision.resetSeconds) }) },
        );
      }
      const grantType = form.get('grant_type');
      if (grantType !== 'client_credentials' && !ctx.hasDefect('token-grant-type-unchecked')) {
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
      const scopes = grantedScopes(ctx, key, form.get('scope'));
      const token = ctx.hasDefect('token-shape-without-at')
        ? `tok_${randomBase62(TOKEN_CHARS)}`
        : newAccessToken();
      const issuedAt = ctx.hasDefect('token-age-from-first-token')
        ? firstTokenIssuedAt(ctx, key.id, now)
        : now;
      ctx.store.tokens.insert(hashSecret(token), key.id, scopes.join(' '), issuedAt);
      return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
        access_token: token,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_SECONDS,
        scope: scopes.join(' '),
      });
    });
  };
}
