import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseBasic } from '../auth/basic.js';
import type { CredentialBehaviour } from '../auth/credential-behaviour.js';
import { badClient } from '../auth/token-grant.js';
import { TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { clientAddress } from '../http/client-address.js';
import { refuseQuery } from '../http/query.js';
import { failedTokenRequestLimit } from '../limits/failed-token-requests.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import type { ApiKey } from '../store/keys.js';

/**
 * The key of a token request's Basic credentials (§5.4). A failure is 401,
 * or 429 once failures spent the key's (or the address's) token budget.
 */
async function authenticateClient(
  ctx: AppContext,
  behave: CredentialBehaviour,
  header: string | undefined,
  address: string,
): Promise<ApiKey> {
  const credentials = parseBasic(header);
  if (!credentials) throw (await failedTokenRequestLimit(ctx, undefined, address)) ?? badClient();
  const key = await behave.clientKey(credentials);
  const accepted = behave.secretAccepted(key, credentials.secret);
  // §3: a revoked key, or a rolled key's old secret, gets no token.
  if (!key || !accepted || !behave.keyIssuesTokens(key)) {
    throw (await failedTokenRequestLimit(ctx, key, address)) ?? badClient();
  }
  return key;
}

/** §2 access token response, not to be cached (RFC 6749 §5.1). */
function sendToken(reply: FastifyReply, token: string, scopes: string[]): FastifyReply {
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
    access_token: token,
    token_type: 'Bearer',
    expires_in: TOKEN_TTL_SECONDS,
    scope: scopes.join(' '),
  });
}

async function issueToken(
  ctx: AppContext,
  behave: CredentialBehaviour,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const form = behave.tokenForm(request);
  const key = await authenticateClient(
    ctx,
    behave,
    request.headers.authorization,
    clientAddress(request),
  );
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw badClient();
  behave.keyGates(key, account, clientAddress(request));
  behave.checkAccount(account, 'token');
  const now = ctx.now(account);
  // §5.5, contract §2: token requests count only against the token limit.
  const { decision, refused } = await behave.countRequest(key, account, 'token', now);
  setRateLimitHeaders(reply, 'token', decision);
  if (refused) throw refused;
  behave.checkGrantType(form.get('grant_type'));
  const scopes = behave.grantedScopes(key, form.get('scope'));
  const token = behave.newToken();
  // A roll or revoke that came between the secret's check and now: the secret no longer works.
  if (!(await behave.storeToken(token, key, scopes, now))) throw badClient();
  return sendToken(reply, token, scopes);
}

/**
 * §4 POST /oauth/token (§5: OAuth 2.0 client credentials). The Secret Key
 * comes only in the Basic header (§5.4), at most 20 requests a minute per key
 * (§5.5), and the answer is the §2 access token response with
 * `Cache-Control: no-store` and no refresh token (RFC 6749 §4.4.3, §5.1).
 */
export function tokenRoutes(ctx: AppContext, behave: CredentialBehaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/oauth/token', { config: { oauth: true } }, (request, reply) =>
      issueToken(ctx, behave, request, reply),
    );
  };
}
