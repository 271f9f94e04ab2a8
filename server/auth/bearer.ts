import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { digestsEqual } from '../crypto/secret-hash.js';
import { clientAddress } from '../http/client-address.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { type RateClass, rateClassOf } from '../limits/rate-limiter.js';
import { invalidToken } from './bearer-problems.js';
import type { CredentialBehaviour } from './credential-behaviour.js';
import type { Principal } from './principal.js';
import type { RouteScopes, ScopedRoutes } from './route-scopes.js';

/**
 * Resolves the bearer token of a request (§5): 401 `unauthorized` without one
 * (§5.1), `invalid_token` when unknown or its key revoked or rolled (§5.3),
 * `token_expired` past 3600 seconds on the account clock (§5.2; valid while at
 * most 3600 seconds old, contract §2), then the key gates (§5.9, §5.10) and
 * the account's state for a request of this rate class (§7).
 */
async function authenticate(
  ctx: AppContext,
  behave: CredentialBehaviour,
  request: FastifyRequest,
  rateClass: RateClass,
): Promise<Principal> {
  const token = behave.bearerToken(request.headers.authorization);
  const malformed = behave.tokenShapeRefusal(token);
  if (malformed) throw malformed;
  const hash = behave.tokenDigest(token);
  const row = await ctx.store.tokens.get(hash);
  if (!row || !digestsEqual(row.hash, hash)) throw invalidToken();
  const key = await ctx.store.keys.get(row.key_id);
  if (!key || !behave.keyHonoursTokens(key)) throw invalidToken();
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw invalidToken();
  const now = ctx.now(account);
  const expired = behave.tokenAgeRefusal(now - row.issued_at);
  if (expired) throw expired;
  behave.keyGates(key, account, clientAddress(request));
  behave.checkAccount(account, rateClass);
  return {
    account,
    key,
    mode: key.mode,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    now,
  };
}

/** The onRequest hook of one group of routes (`route`: its row of the §5.8 scope table). */
export type TokenGate = (
  route: ScopedRoutes,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The bearer gate of every API route but the token request: authenticate,
 * count the request against its key's rate limit (§8, fixed windows on the
 * account clock), then check the scope the route's row of `scopes` names
 * (§5.8). Runs before the body is read, so an unauthenticated request costs
 * no parsing.
 */
export function tokenGate(
  ctx: AppContext,
  behave: CredentialBehaviour,
  scopes: RouteScopes,
): TokenGate {
  return (route) => {
    const scope = scopes[route];
    // The store answers through promises (store/store.ts); a rejection is caught by Fastify's hook runner.
    return async function tokenHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const rateClass = rateClassOf(request.method);
      const principal = await authenticate(ctx, behave, request, rateClass);
      const { key, account, now } = principal;
      const counted = behave.rateClass(request);
      const { decision, refused } = await behave.countRequest(key, account, counted, now);
      setRateLimitHeaders(reply, counted, decision);
      if (refused) throw refused;
      if (scope !== null && !principal.scopes.includes(scope)) throw behave.scopeRefusal(scope);
      request.principal = principal;
    };
  };
}
