import type { FastifyRequest } from 'fastify';
import { KEY_PREFIX, TOKEN_TTL_SECONDS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { hashSecret, secretMatches } from '../crypto/secret-hash.js';
import { newAccessToken } from '../domain/ids.js';
import type { Scope } from '../domain/scopes.js';
import { readFormBody } from '../http/body.js';
import { type RateClass, type RateDecision, rateClassOf } from '../limits/rate-limiter.js';
import type { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import type { ApiKey } from '../store/keys.js';
import type { BasicCredentials } from './basic.js';
import {
  insufficientScope,
  invalidToken,
  rateLimited,
  tokenExpired,
  unauthorized,
} from './bearer-problems.js';
import { checkKeyGates } from './key-gates.js';
import { checkAvailable } from './service-state.js';
import { checkGrantType, grantedScopes, tokenLimitReached } from './token-grant.js';

/** A request counted against its budget (§8): the window's decision, and the answer when past it. */
interface RateOutcome {
  readonly decision: RateDecision;
  readonly refused: ApiProblem | undefined;
}

/**
 * The §5 and §8 credential steps, in the two places credentials are checked:
 * the token request (routes/token.ts) and the bearer gate of every other API
 * route (auth/bearer.ts). Each member is one step of those flows;
 * `correctCredentials` is the reference's, and app.ts hands the routes the
 * composed one (server/behaviour.ts).
 */
export interface CredentialBehaviour {
  // Both places.
  /** §5.9, §5.10: key-level refusals (contract §2: at the token request and at every call). */
  keyGates(key: ApiKey, account: Account, ip: string): void;
  /** §7: what the account's state refuses to a request of this rate class (`token`: a token request). */
  checkAccount(account: Account, use: RateClass): void;
  /** §5.5, §8: counts the request against its key's budget for the class (fixed windows on the account clock). */
  countRequest(
    key: ApiKey,
    account: Account,
    rateClass: RateClass,
    now: number,
  ): Promise<RateOutcome>;

  // The token request (§4 POST /oauth/token).
  /** The form fields (415 unless a form; §5.4: no Secret Key in it). */
  tokenForm(request: FastifyRequest): URLSearchParams;
  /** §2: the key the Basic credentials name; the Access Key ID identifies it (undefined: unknown). */
  clientKey(credentials: BasicCredentials): Promise<ApiKey | undefined>;
  /** §5.4: whether `secret` is the key's Secret Key (`key` undefined: unknown Access Key ID). */
  secretAccepted(key: ApiKey | undefined, secret: string): boolean;
  /** §3: whether the key may get tokens (a revoked key may not). */
  keyIssuesTokens(key: ApiKey): boolean;
  /** RFC 6749 §5.2: grant_type. */
  checkGrantType(grantType: string | null): void;
  /** §5.7: the scopes a token gets for the `scope` field. */
  grantedScopes(key: ApiKey, requested: string | null): string[];
  /** §2: a new access token. */
  newToken(): string;
  /**
   * Stores a new token (its digest only) of the key, issued at `now` on the account clock (§5.2),
   * unless the key was rolled or revoked since its secret was checked (§3): false, nothing stored.
   */
  storeToken(token: string, key: ApiKey, scopes: readonly string[], now: number): Promise<boolean>;

  // The bearer gate (every API route but the token request).
  /** §8: the budget a call counts against: reads are GET (and HEAD), writes POST, PATCH and DELETE. */
  rateClass(request: FastifyRequest): RateClass;
  /** §5.1: the token of the Authorization header; throws 401 without a Bearer token. */
  bearerToken(header: string | undefined): string;
  /** §5.3: the answer to a token that cannot be one of ours (wrong shape), or undefined. */
  tokenShapeRefusal(token: string): ApiProblem | undefined;
  /** The digest a token is stored under. */
  tokenDigest(token: string): Buffer;
  /** §3: whether the key's tokens still work (a revoked key's do not). */
  keyHonoursTokens(key: ApiKey): boolean;
  /** §5.2: the answer to a token `ageMs` old on the account clock, or undefined while valid. */
  tokenAgeRefusal(ageMs: number): ApiProblem | undefined;
  /** §5.8: the answer to a token without the scope. */
  scopeRefusal(needed: Scope): ApiProblem;
}

const BEARER = /^bearer +([^ ]+) *$/i;
const TOKEN_SHAPE = new RegExp(`^${KEY_PREFIX}_at_[0-9A-Za-z]{24,200}$`);
const TTL_MS = TOKEN_TTL_SECONDS * 1000;
/** Compared against when the Access Key ID is unknown, so that both failures take the same time. */
const DUMMY_DIGEST = hashSecret('no such key');

/** The reference's credential steps, over the app's store and rate-limit windows. */
export function correctCredentials(ctx: AppContext): CredentialBehaviour {
  return {
    keyGates: checkKeyGates,
    checkAccount: (account) => checkAvailable(account),
    countRequest: async (key, account, rateClass, now) => {
      const decision = await ctx.rateLimiter.take(
        key.id,
        rateClass,
        account.settings.rate_limits[rateClass],
        now,
      );
      if (decision.allowed) return { decision, refused: undefined };
      return {
        decision,
        refused:
          rateClass === 'token' ? tokenLimitReached(decision) : rateLimited(rateClass, decision),
      };
    },

    tokenForm: readFormBody,
    clientKey: (credentials) => ctx.store.keys.get(credentials.id),
    secretAccepted: (key, secret) =>
      secretMatches(secret, key?.secretHash ?? DUMMY_DIGEST) && key !== undefined,
    keyIssuesTokens: (key) => key.status === 'active',
    checkGrantType,
    grantedScopes,
    newToken: newAccessToken,
    storeToken: (token, key, scopes, now) =>
      ctx.store.tokens.issue(hashSecret(token), key, scopes.join(' '), now),

    rateClass: (request) => rateClassOf(request.method),
    bearerToken: (header) => {
      const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
      if (token === undefined) throw unauthorized();
      return token;
    },
    tokenShapeRefusal: (token) => (TOKEN_SHAPE.test(token) ? undefined : invalidToken()),
    tokenDigest: hashSecret,
    keyHonoursTokens: (key) => key.status === 'active',
    tokenAgeRefusal: (ageMs) => (ageMs > TTL_MS ? tokenExpired() : undefined),
    scopeRefusal: (needed) => insufficientScope(needed),
  };
}
