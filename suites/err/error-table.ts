/** The error table of section 7: every documented code and the HTTP status it goes with. */
export const ERROR_TABLE: Readonly<Record<string, number>> = Object.freeze({
  credentials_in_url: 400,
  idempotency_key_required: 400,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  card_declined: 402,
  authentication_required: 402,
  payment_method_required: 402,
  payment_failed: 402,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  api_not_enabled: 403,
  sandbox_not_enabled: 403,
  partner_suspended: 403,
  not_found: 404,
  idempotency_conflict: 409,
  duplicate_external_id: 409,
  not_cancellable: 409,
  account_incomplete: 409,
  unsupported_media_type: 415,
  validation_failed: 422,
  limit_exceeded: 422,
  rate_limited: 429,
  internal_error: 500,
  api_unavailable: 503,
  read_only: 503,
});

/** The anchor of a code's documentation (section 2): `errors#error-<code, underscores as hyphens>`. */
export function errorAnchor(code: string): string {
  return `/errors#error-${code.replace(/_/g, '-')}`;
}
