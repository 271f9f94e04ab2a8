import { TOKEN_TTL_SECONDS } from '../config/api.js';
import type { Scope } from '../domain/scopes.js';
import type { RateClass, RateDecision } from '../limits/rate-limiter.js';
import { ApiProblem } from '../problems/api-problem.js';
import { bearerChallenge } from './www-authenticate.js';

/** §5.1: 401 `unauthorized`. RFC 6750 §3: no credentials sent, so the challenge carries no error. */
export function unauthorized(): ApiProblem {
  return new ApiProblem(
    'unauthorized',
    'Send an access token in the Authorization: Bearer header. Get one from POST /oauth/token.',
    { headers: { 'www-authenticate': bearerChallenge() } },
  );
}

/** §5.3: 401 `invalid_token`, with its Bearer challenge. */
export function invalidToken(): ApiProblem {
  const detail = 'The access token is unknown, or its key was revoked or rolled. Get a new token.';
  return new ApiProblem('invalid_token', detail, {
    headers: {
      'www-authenticate': bearerChallenge({ error: 'invalid_token', description: detail }),
    },
  });
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
export function insufficientScope(needed: Scope): ApiProblem {
  const detail = `This call needs the scope ${needed}, which the token lacks.`;
  return new ApiProblem('insufficient_scope', detail, {
    requiredScope: needed,
    headers: {
      'www-authenticate': bearerChallenge({
        error: 'insufficient_scope',
        description: detail,
        scope: needed,
      }),
    },
  });
}
