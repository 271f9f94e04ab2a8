import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_PREFIX, TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { digestsEqual, hashSecret } from '../crypto/secret-hash.js';
import type { Scope } from '../domain/scopes.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import type { RateClass, RateDecision } from '../limits/rate-limiter.js';
import { ApiProblem } from '../problems/api-problem.js';
import { checkKeyGates } from './key-gates.js';
import type { Principal } from './principal.js';
import { checkAvailable } from './service-state.js';
import { bearerChallenge } from './www-authenticate.js';

const BEARER = /^bearer +([^ ]+) *$/i;
const TOKEN_SHAPE = new RegExp(`^${KEY_PREFIX}_at_[0-9A-Za-z]{24,200}$`);
const TTL_MS = TOKEN_TTL_SECONDS * 1000;

export function unauthorized(): ApiProblem {
  // RFC 6750 §3: no credentials sent, so the challenge carries no error.
  return new ApiProblem(
    'unauthorized',
    'Send an access token in the Authorization: Bearer header. Get one from POST /oauth/token.',
    { headers: { 'www-authenticate': bearerChallenge() } },
  );
}

export function invalidToken(): ApiProblem {
  const detail = 'The access token is unknown, or its key was revoked or rolled. Get a new token.';
  return new ApiProblem('invalid_token', detail, {
    headers: {
      'www-authenticate': bearerChallenge({ error: 'invalid_token', description: detail }),
    },
  });
}

/**
 * Resolves the bearer token of a request (§5): 401 `unauthorized` without one
 * (§5.1), `invalid_token` when unknown or its key revoked or rolled (§5.3),
 * `token_expired` past 3600 seconds on the account clock (§5.2; valid while at
 * most 3600 seconds old, contract §2), then the key gates (§5.9, §5.10) and
 * the account's service state.
 */
export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const header = request.headers.authorization;
  const match = header === undefined ? null : BEARER.exec(header);
  if (!match?.[1]) throw unauthorized();
  const token = match[1];
  if (!TOKEN_SHAPE.test(token)) throw invalidToken();
  const hash = hashSecret(token);
  const row = await ctx.store.tokens.get(hash);
  if (!row || !digestsEqual(row.hash, hash)) throw invalidToken();
  const key = await ctx.store.keys.get(row.key_id);
  if (key?.status !== 'active') throw invalidToken();
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw invalidToken();
  const now = ctx.now(account);
  if (now - row.issued_at > TTL_MS) throw tokenExpired();
  checkKeyGates(key, account, request.ip);
  checkAvailable(account);
  return {
    account,
    key,
    mode: key.mode,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    now,
  };
}

/** §5.2: 401 `token_expired`, with its Bearer challenge. */
export function tokenExpired(): ApiProblem {
  const detail = `The access token is older than ${TOKEN_TTL_SECONDS} seconds. Get a new token and retry.`;
  return new ApiProblem('token_expired', detail, {
    headers: {
      'www-authenticate': bearerChallenge({ error: 'invalid_token', description: detail }),
    },
  });
}

/** §8: reads are GET (and HEAD); writes are POST, PATCH and DELETE. */
export function rateClassOf(method: string): RateClass {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The onRequest hook of every API route but the token request: authenticate,
 * count the request against its key's rate limit (§8, fixed windows on the
 * account clock), then check the scope (§5.8). `scope` null: any valid token
 * (contract §2: `GET /account`). Runs before the body is read, so an
 * unauthenticated request costs no parsing.
 */
export function requireToken(ctx: AppContext, scope: Scope | null) {
  // A throw (rejection) is caught by Fastify's hook runner.
  return async function tokenHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // The test-only defect catalogue, when switched on, gates the request its own way.
    const gate = ctx.hooks.bearerGate;
    if (gate !== undefined) {
      request.principal = await gate(ctx, scope, request, reply);
      return;
    }
    const principal = await authenticate(ctx, request);
    const rateClass = rateClassOf(request.method);
    const decision = await ctx.rateLimiter.take(
      principal.key.id,
      rateClass,
      principal.account.settings.rate_limits[rateClass],
      principal.now,
    );
    setRateLimitHeaders(reply, rateClass, decision);
    if (!decision.allowed) throw rateLimited(rateClass, decision);
    if (scope !== null && !principal.scopes.includes(scope)) throw insufficientScope(scope);
    request.principal = principal;
  };
}

/** §8: 429 `rate_limited` with `Retry-After`, the seconds to the window's reset. */
export function rateLimited(rateClass: RateClass, decision: RateDecision): ApiProblem {
  return new ApiProblem(
    'rate_limited',
    `Too many ${rateClass} requests for this key: at most ${decision.limit} a minute. ` +
      `Retry after ${decision.resetSeconds} seconds.`,
    { headers: { 'retry-after': String(decision.resetSeconds) } },
  );
}

/** §5.8: 403 `insufficient_scope` naming the scope, in the body and the Bearer challenge. */
export function insufficientScope(needed: Scope, requiredScope = true): ApiProblem {
  const detail = `This call needs the scope ${needed}, which the token lacks.`;
  return new ApiProblem('insufficient_scope', detail, {
    ...(requiredScope ? { requiredScope: needed } : {}),
    headers: {
      'www-authenticate': bearerChallenge({
        error: 'insufficient_scope',
        description: detail,
        scope: needed,
      }),
    },
  });
}
