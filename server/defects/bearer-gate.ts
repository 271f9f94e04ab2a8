import {
  insufficientScope,
  invalidToken,
  tokenExpired,
  unauthorized,
} from '../auth/bearer-problems.js';
import { type CredentialBehaviour, correctCredentials } from '../auth/credential-behaviour.js';
import { TOKEN_TTL_SECONDS } from '../config/api.js';
import { hashSecret } from '../crypto/secret-hash.js';
import type { HasDefect } from './catalogue.js';

/** `token-shape-without-at`. */
const DEFECT_TOKEN_SHAPE = /^tok_[0-9A-Za-z]{24,200}$/;
/** `token-scheme-accepted`. */
const TOKEN_SCHEME = /^token +([^ ]+) *$/i;
const correct = correctCredentials;

/**
 * The bearer gate's decisions (auth/credential-behaviour.ts) bent by the §5
 * token and §5.8 scope defects; part of `ctx.hooks.credentials` when defects
 * are on (defects/credentials.ts).
 */
export function defectiveBearerGate(hasDefect: HasDefect): Partial<CredentialBehaviour> {
  const ttlMs = hasDefect('token-lives-3700s')
    ? 3_700_000
    : hasDefect('token-expires-at-3500s')
      ? 3_500_000
      : TOKEN_TTL_SECONDS * 1000;
  return {
    bearerToken: (header) => {
      if (header === undefined && hasDefect('missing-bearer-as-invalid-token')) {
        throw invalidToken();
      }
      const other = hasDefect('token-scheme-accepted') ? TOKEN_SCHEME.exec(header ?? '') : null;
      return other?.[1] ?? correct.bearerToken(header);
    },
    tokenShapeRefusal: (token) => {
      if (hasDefect('token-shape-without-at') && DEFECT_TOKEN_SHAPE.test(token)) return undefined;
      const refused = correct.tokenShapeRefusal(token);
      return refused && hasDefect('malformed-token-as-unauthorized') ? unauthorized() : refused;
    },
    tokenDigest: (token) =>
      hashSecret(hasDefect('bearer-scheme-hashed') ? `Bearer ${token}` : token),
    keyHonoursTokens: (key) => hasDefect('revoke-keeps-tokens') || correct.keyHonoursTokens(key),
    tokenAgeRefusal: (ageMs) => {
      if (ageMs <= ttlMs) return undefined;
      return hasDefect('token-expired-as-invalid') ? invalidToken() : tokenExpired();
    },
    scopeNeeded: (scope, routeOf) => {
      const route = routeOf();
      if (route.endsWith('/cancel') && hasDefect('cancel-scope-not-enforced')) return null;
      if (route.includes('/events')) {
        if (hasDefect('events-without-webhooks-scope')) return null;
        if (hasDefect('events-need-orders-read')) return 'orders:read';
      }
      if (route.includes('/catalog/') && hasDefect('catalog-needs-orders-read')) {
        return 'orders:read';
      }
      return scope ?? (hasDefect('account-needs-orders-read') ? 'orders:read' : null);
    },
    scopeRefusal: (needed) => insufficientScope(needed, !hasDefect('required-scope-missing')),
  };
}
