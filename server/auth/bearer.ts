import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_PREFIX, TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { digestsEqual, hashSecret } from '../crypto/secret-hash.js';
import { bentRetryAfter, lockedOutSeconds } from '../defects/rate.js';
import type { Scope } from '../domain/scopes.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import type { RateClass } from '../limits/rate-limiter.js';
import { checkNotSuspended } from '../orders/account-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import { checkKeyGates } from './key-gates.js';
import type { Principal } from './principal.js';
import { checkAvailable, checkWritable } from './service-state.js';
import { bearerChallenge } from './www-authenticate.js';

const BEARER = /^bearer +([^ ]+) *$/i;
const TOKEN_SHAPE = new RegExp(`^${KEY_PREFIX}_at_[0-9A-Za-z]{24,200}$`);
const TTL_MS = TOKEN_TTL_SECONDS * 1000;
/** Only under the test-only defect `token-shape-without-at`. */
const DEFECT_TOKEN_SHAPE = /^tok_[0-9A-Za-z]{24,200}$/;
/** Only under the test-only defect `token-scheme-accepted`. */
const TOKEN_SCHEME = /^token +([^ ]+) *$/i;

function unauthorized(): ApiProblem {
  // RFC 6750 §3: no credentials sent, so the challenge carries no error.
  return new ApiProblem(
    'unauthorized',
    'Send an access token in the Authorization: Bearer header. Get one from POST /oauth/token.',
    { headers: { 'www-authenticate': bearerChallenge() } },
  );
}

function invalidToken(): ApiProblem {
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
export function authenticate(ctx: AppContext, request: FastifyRequest): Principal {
  const header = request.headers.authorization;
  const match =
    header === undefined
      ? null
      : (BEARER.exec(header) ??
        (ctx.hasDefect('token-scheme-accepted') ? TOKEN_SCHEME.exec(header) : null));
  if (!match?.[1]) {
    const noHeader = header === undefined && ctx.hasDefect('missing-bearer-as-invalid-token');
    throw noHeader ? invalidToken() : unauthorized();
  }
  const token = match[1];
  const shaped =
    TOKEN_SHAPE.test(token) ||
    (ctx.hasDefect('token-shape-without-at') && DEFECT_TOKEN_SHAPE.test(token));
  if (!shaped) {
    throw ctx.hasDefect('malformed-token-as-unauthorized') ? unauthorized() : invalidToken();
  }
  const hash = hashSecret(ctx.hasDefect('bearer-scheme-hashed') ? `Bearer ${token}` : token);
  const row = ctx.store.tokens.get(hash);
  if (!row || !digestsEqual(row.hash, hash)) throw invalidToken();
  const key = ctx.store.keys.get(row.key_id);
  if (!key || (key.status !== 'active' && !ctx.hasDefect('revoke-keeps-tokens'))) {
    throw invalidToken();
  }
  const account = ctx.store.accounts.get(key.accountId);
  if (!account) throw invalidToken();
  const now = ctx.now(account);
  const ttl = ctx.hasDefect('token-lives-3700s')
    ? 3_700_000
    : ctx.hasDefect('token-expires-at-3500s')
      ? 3_500_000
      : TTL_MS;
  if (now - row.issued_at > ttl) {
    if (ctx.hasDefect('token-expired-as-invalid')) throw invalidToken();
    const detail = `The access token is older than ${TOKEN_TTL_SECONDS} seconds. Get a new token and retry.`;
    throw new ApiProblem('token_expired', detail, {
      headers: {
        'www-authenticate': bearerChallenge({ error: 'invalid_token', description: detail }),
      },
    });
  }
  checkKeyGates(key, account, request.ip, ctx.hasDefect);
  if (!ctx.hasDefect('unavailable-ignored')) checkAvailable(account);
  return {
    account,
    key,
    mode: key.mode,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    now,
  };
}

/** §8: reads are GET (and HEAD); writes are POST, PATCH and DELETE. */
function rateClassOf(method: string): RateClass {
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
  // Callback style: no promise per request; a throw is caught by Fastify's hook runner.
  return function tokenHook(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    const principal = authenticate(ctx, request);
    const rateClass = rateClassOf(request.method);
    if (rateClass === 'read') {
      if (ctx.hasDefect('read-only-blocks-reads')) checkWritable(principal.account);
      if (ctx.hasDefect('suspended-blocks-reads')) checkNotSuspended(principal.account, 'reads');
    }
    const locked = ctx.hasDefect('token-refusal-blocks-calls')
      ? lockedOutSeconds(ctx, principal.key.id, principal.now)
      : 0;
    if (locked > 0) {
      throw new ApiProblem('rate_limited', `This key is locked out for ${locked} seconds.`, {
        headers: { 'retry-after': String(locked) },
      });
    }
    const decision = ctx.rateLimiter.take(
      ctx.hasDefect('rate-limit-per-account') ? principal.account.id : principal.key.id,
      rateClass,
      ctx.hasDefect('read-limit-400') && rateClass === 'read'
        ? 400
        : principal.account.settings.rate_limits[rateClass],
      principal.now,
    );
    setRateLimitHeaders(reply, rateClass, decision);
    if (!decision.allowed && !(rateClass === 'write' && ctx.hasDefect('writes-not-limited'))) {
      throw new ApiProblem(
        'rate_limited',
        `Too many ${rateClass} requests for this key: at most ${decision.limit} a minute. ` +
          `Retry after ${decision.resetSeconds} seconds.`,
        { headers: bentRetryAfter(ctx, { 'retry-after': String(decision.resetSeconds) }) },
      );
    }
    const needed = scope ?? (ctx.hasDefect('account-needs-orders-read') ? 'orders:read' : null);
    if (needed !== null && !principal.scopes.includes(needed)) {
      const detail = `This call needs the scope ${needed}, which the token lacks.`;
      throw new ApiProblem('insufficient_scope', detail, {
        ...(ctx.hasDefect('required-scope-missing') ? {} : { requiredScope: needed }),
        headers: {
          'www-authenticate': bearerChallenge({
            error: 'insufficient_scope',
            description: detail,
            scope: needed,
          }),
        },
      });
    }
    request.principal = principal;
    done();
  };
}
