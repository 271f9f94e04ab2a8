import { AUTH_REALM } from '../config/api.js';

/**
 * RFC 6750 §3 Bearer challenges. With no credentials sent, the challenge
 * carries no error attribute; otherwise `error="invalid_token"` or
 * `error="insufficient_scope"` with `scope=`.
 */
export function bearerChallenge(error?: {
  error: 'invalid_token' | 'insufficient_scope';
  description: string;
  scope?: string;
}): string {
  let value = `Bearer realm="${AUTH_REALM}"`;
  if (error) {
    value += `, error="${error.error}", error_description="${error.description.replaceAll('"', "'")}"`;
    if (error.scope !== undefined) value += `, scope="${error.scope}"`;
  }
  return value;
}

/** RFC 6749 §5.2, RFC 7617: a token request with bad client credentials. */
export function basicChallenge(): string {
  return `Basic realm="${AUTH_REALM}", charset="UTF-8"`;
}
