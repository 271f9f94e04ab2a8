import { isScope } from '../domain/scopes.js';
import type { RateDecision } from '../limits/rate-limiter.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';
import { basicChallenge } from './www-authenticate.js';

/** Contract §2: bad Basic credentials are 401 `unauthorized` with `WWW-Authenticate: Basic`. */
export function badClient(): ApiProblem {
  return new ApiProblem(
    'unauthorized',
    'Send the Access Key ID and Secret Key of an active key in the Authorization: Basic header.',
    { headers: { 'www-authenticate': basicChallenge() } },
  );
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

/** The `scope` field of a token request: its scopes, blanks dropped. */
export function askedScopes(requested: string | null): string[] {
  return (requested ?? '').split(' ').filter((s) => s !== '');
}

/** §5.7: the key's scopes, or the subset asked for with `scope`; asking for more is 403 (contract §2). */
export function grantedScopes(key: ApiKey, requested: string | null): string[] {
  const asked = askedScopes(requested);
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
