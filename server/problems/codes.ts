/**
 * §7: every error code of the API document with its status and a title. The
 * `code` never changes (§9); titles may be reworded. The control protocol
 * (contract §3) adds codes of its own, kept apart below.
 */
export const API_CODES = {
  credentials_in_url: { status: 400, title: 'Credentials in URL' },
  idempotency_key_required: { status: 400, title: 'Idempotency-Key required' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  invalid_token: { status: 401, title: 'Invalid token' },
  token_expired: { status: 401, title: 'Token expired' },
  card_declined: { status: 402, title: 'Card declined' },
  authentication_required: { status: 402, title: 'Authentication required' },
  payment_method_required: { status: 402, title: 'Payment method required' },
  payment_failed: { status: 402, title: 'Payment failed' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  ip_not_allowed: { status: 403, title: 'IP address not allowed' },
  api_not_enabled: { status: 403, title: 'Live access not enabled' },
  sandbox_not_enabled: { status: 403, title: 'Test mode not enabled' },
  partner_suspended: { status: 403, title: 'Partner account suspended' },
  not_found: { status: 404, title: 'Not found' },
  idempotency_conflict: { status: 409, title: 'Idempotency-Key conflict' },
  duplicate_external_id: { status: 409, title: 'Duplicate external_id' },
  not_cancellable: { status: 409, title: 'Order not cancellable' },
  account_incomplete: { status: 409, title: 'Account incomplete' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  validation_failed: { status: 422, title: 'Validation failed' },
  limit_exceeded: { status: 422, title: 'Limit exceeded' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  api_unavailable: { status: 503, title: 'API unavailable' },
  read_only: { status: 503, title: 'Read-only mode' },
} as const;

/** Control-protocol-only codes (contract §3: "errors use problem+json with a code"). */
export const CONTROL_CODES = {
  invalid_state: { status: 409, title: 'Invalid state for this operation' },
} as const;

/**
 * Refusals of the HTTP layer, made before the API reads a request: its
 * framing (RFC 9112), its size, its time, an expectation. The document's
 * table has no code for them and pairs `validation_failed` with 422 only
 * (§7), so each is named after the status HTTP has it send (RFC 9110 §15.5,
 * RFC 6585 §5).
 */
export const HTTP_CODES = {
  bad_request: { status: 400, title: 'Bad request' },
  request_timeout: { status: 408, title: 'Request timeout' },
  content_too_large: { status: 413, title: 'Content too large' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
} as const;

export type ApiCode = keyof typeof API_CODES;
export type HttpCode = keyof typeof HTTP_CODES;
export type ProblemCode = ApiCode | keyof typeof CONTROL_CODES | HttpCode;

export function problemDefinition(code: ProblemCode): { status: number; title: string } {
  if (code in API_CODES) return API_CODES[code as ApiCode];
  if (code in HTTP_CODES) return HTTP_CODES[code as HttpCode];
  return CONTROL_CODES[code as keyof typeof CONTROL_CODES];
}
