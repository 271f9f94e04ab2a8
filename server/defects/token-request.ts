import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseBasic } from '../auth/basic.js';
import { checkAvailable, checkWritable } from '../auth/service-state.js';
import { MAX_ACTIVE_KEYS, TOKEN_CHARS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { hashSecret, secretMatches } from '../crypto/secret-hash.js';
import { newAccessToken, randomBase62 } from '../domain/ids.js';
import { isScope } from '../domain/scopes.js';
import { parseFormBody, readFormBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { failedTokenRequestLimit } from '../limits/failed-token-requests.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { ApiProblem } from '../problems/api-problem.js';
import {
  badClient,
  checkGrantType,
  DUMMY_DIGEST,
  sendToken,
  tokenLimitReached,
} from '../routes/token.js';
import type { ApiKey } from '../store/keys.js';
import { defectiveKeyGates } from './key-gates.js';
import { matchesReplacedSecret } from './key-memory.js';
import { lockOutKey } from './rate.js';
import { rememberingRefusal } from './sticky-refusal.js';
import { firstTokenIssuedAt, jsonOnlyForm } from './tokens.js';

async function authenticateClient(
  ctx: AppContext,
  header: string | undefined,
  address: string,
): Promise<ApiKey> {
  const credentials = parseBasic(header);
  if (!credentials) throw (await failedTokenRequestLimit(ctx, undefined, address)) ?? badClient();
  const key = await ctx.store.keys.get(credentials.id);
  const matches =
    secretMatches(credentials.secret, key?.secretHash ?? DUMMY_DIGEST) ||
    (key !== undefined &&
      ctx.hasDefect('roll-keeps-old-secret') &&
      matchesReplacedSecret(ctx, key.id, credentials.secret)) ||
    (key !== undefined && ctx.hasDefect('wrong-secret-accepted'));
  const revoked = key?.status !== 'active' && !ctx.hasDefect('revoked-key-issues-tokens');
  if (!key || !matches || revoked) {
    throw (await failedTokenRequestLimit(ctx, key, address)) ?? badClient();
  }
  return key;
}

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
 * POST /oauth/token of a defective server (routes/token.ts with the token,
 * key and rate defects switched in): plugged in as `ctx.hooks.tokenRequest`
 * only when defects are on.
 */
export async function defectiveTokenRequest(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const form = ctx.hasDefect('token-form-body-ignored')
    ? jsonOnlyForm(request)
    : ctx.hasDefect('secret-in-token-form-accepted')
      ? parseFormBody(request)
      : readFormBody(request);
  const key = await authenticateClient(ctx, request.headers.authorization, request.ip);
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw badClient();
  if (ctx.hasDefect('live-refusal-remembered')) {
    rememberingRefusal(ctx, key.id, () =>
      defectiveKeyGates(key, account, request.ip, ctx.hasDefect),
    );
  } else {
    defectiveKeyGates(key, account, request.ip, ctx.hasDefect);
  }
  if (!ctx.hasDefect('unavailable-ignored')) checkAvailable(account);
  if (ctx.hasDefect('read-only-blocks-tokens')) checkWritable(account);
  if (
    ctx.hasDefect('ten-keys-no-tokens') &&
    (await ctx.store.keys.countActive(account.id)) >= MAX_ACTIVE_KEYS
  ) {
    throw badClient();
  }
  const now = ctx.now(account);
  const decision = await ctx.rateLimiter.take(
    ctx.hasDefect('rate-limit-per-account') ? account.id : key.id,
    'token',
    account.settings.rate_limits.token,
    now,
  );
  setRateLimitHeaders(reply, 'token', decision);
  if (!decision.allowed && !ctx.hasDefect('token-limit-off')) {
    if (ctx.hasDefect('token-refusal-blocks-calls'))
      lockOutKey(ctx, key.id, now + decision.resetSeconds * 1000);
    throw tokenLimitReached(decision);
  }
  if (!ctx.hasDefect('token-grant-type-unchecked')) checkGrantType(form.get('grant_type'));
  const scopes = grantedScopes(ctx, key, form.get('scope'));
  const token = ctx.hasDefect('token-shape-without-at')
    ? `tok_${randomBase62(TOKEN_CHARS)}`
    : newAccessToken();
  const issuedAt = ctx.hasDefect('token-age-from-first-token')
    ? await firstTokenIssuedAt(ctx, key.id, now)
    : now;
  await ctx.store.tokens.insert(hashSecret(token), key.id, scopes.join(' '), issuedAt);
  return sendToken(reply, token, scopes);
}
