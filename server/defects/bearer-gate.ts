import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  insufficientScope,
  invalidToken,
  rateClassOf,
  rateLimited,
  tokenExpired,
  unauthorized,
} from '../auth/bearer.js';
import type { Principal } from '../auth/principal.js';
import { checkAvailable, checkWritable } from '../auth/service-state.js';
import { KEY_PREFIX, TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { digestsEqual, hashSecret } from '../crypto/secret-hash.js';
import type { Scope } from '../domain/scopes.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { checkNotSuspended } from '../orders/account-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectiveKeyGates } from './key-gates.js';
import { lockedOutSeconds } from './rate.js';

const BEARER = /^bearer +([^ ]+) *$/i;
const TOKEN_SHAPE = new RegExp(`^${KEY_PREFIX}_at_[0-9A-Za-z]{24,200}$`);
const TTL_MS = TOKEN_TTL_SECONDS * 1000;
/** `token-shape-without-at`. */
const DEFECT_TOKEN_SHAPE = /^tok_[0-9A-Za-z]{24,200}$/;
/** `token-scheme-accepted`. */
const TOKEN_SCHEME = /^token +([^ ]+) *$/i;

/**
 * The bearer gate of a defective server (auth/bearer.ts `requireToken` with
 * the defects of §5 and §8 switched in): plugged in as `ctx.hooks.bearerGate`
 * only when defects are on.
 */
export async function defectiveBearerGate(
  ctx: AppContext,
  scope: Scope | null,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Principal> {
  const principal = await authenticate(ctx, request);
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
  const decision = await ctx.rateLimiter.take(
    ctx.hasDefect('rate-limit-per-account') ? principal.account.id : principal.key.id,
    rateClass,
    ctx.hasDefect('read-limit-400') && rateClass === 'read'
      ? 400
      : principal.account.settings.rate_limits[rateClass],
    principal.now,
  );
  setRateLimitHeaders(reply, rateClass, decision);
  if (!decision.allowed && !(rateClass === 'write' && ctx.hasDefect('writes-not-limited'))) {
    throw rateLimited(rateClass, decision);
  }
  const needed = scopeNeeded(ctx, scope, request.routeOptions.url ?? '');
  if (needed !== null && !principal.scopes.includes(needed)) {
    throw insufficientScope(needed, !ctx.hasDefect('required-scope-missing'));
  }
  return principal;
}

async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
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
  const row = await ctx.store.tokens.get(hash);
  if (!row || !digestsEqual(row.hash, hash)) throw invalidToken();
  const key = await ctx.store.keys.get(row.key_id);
  if (!key || (key.status !== 'active' && !ctx.hasDefect('revoke-keeps-tokens'))) {
    throw invalidToken();
  }
  const account = await ctx.store.accounts.get(key.accountId);
  if (!account) throw invalidToken();
  const now = ctx.now(account);
  const ttl = ctx.hasDefect('token-lives-3700s')
    ? 3_700_000
    : ctx.hasDefect('token-expires-at-3500s')
      ? 3_500_000
      : TTL_MS;
  if (now - row.issued_at > ttl) {
    throw ctx.hasDefect('token-expired-as-invalid') ? invalidToken() : tokenExpired();
  }
  defectiveKeyGates(key, account, request.ip, ctx.hasDefect);
  if (!ctx.hasDefect('unavailable-ignored')) checkAvailable(account);
  return {
    account,
    key,
    mode: key.mode,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    now,
  };
}

/** The scope a route asks for on a defective server (§5.8 scope table, bent). */
function scopeNeeded(ctx: AppContext, scope: Scope | null, route: string): Scope | null {
  if (route.endsWith('/cancel') && ctx.hasDefect('cancel-scope-not-enforced')) return null;
  if (route.includes('/events')) {
    if (ctx.hasDefect('events-without-webhooks-scope')) return null;
    if (ctx.hasDefect('events-need-orders-read')) return 'orders:read';
  }
  if (route.includes('/catalog/') && ctx.hasDefect('catalog-needs-orders-read')) {
    return 'orders:read';
  }
  return scope ?? (ctx.hasDefect('account-needs-orders-read') ? 'orders:read' : null);
}
