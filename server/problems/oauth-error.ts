import type { ProblemCode } from './codes.js';

/**
 * The `error` member of a token-endpoint error (RFC 6749 §5.2), beside our
 * `code`, so that standard OAuth client libraries understand the refusal.
 * Refusals §5.2 has no word for (rate limit, outage, fault) use the registered
 * `temporarily_unavailable` / `server_error` codes (RFC 6749 §4.1.2.1).
 */
export function oauthErrorFor(code: ProblemCode): string {
  switch (code) {
    case 'unauthorized':
      return 'invalid_client';
    case 'insufficient_scope':
      return 'invalid_scope';
    case 'ip_not_allowed':
    case 'api_not_enabled':
    case 'sandbox_not_enabled':
    case 'partner_suspended':
      return 'unauthorized_client';
    case 'rate_limited':
    case 'api_unavailable':
    case 'read_only':
      return 'temporarily_unavailable';
    case 'internal_error':
      return 'server_error';
    default:
      return 'invalid_request';
  }
}
