import type { ApiCode } from '../problems/codes.js';

/**
 * The API document's own words, quoted into the descriptions of the OpenAPI
 * document (docs/partner-ordering-api.md): §7's condition and remedy of each
 * error code, and the sections each operation rests on.
 */
export const CODE_SENTENCES: Readonly<Record<ApiCode, string>> = {
  credentials_in_url:
    'A token, key or secret is in the URL. Remedy: send credentials in the Authorization header. Roll the key. (§7, §5.6)',
  idempotency_key_required:
    'POST /orders without Idempotency-Key (up to 255 characters). Remedy: add the header. (§7, §4)',
  unauthorized: 'No `Authorization: Bearer` header. Remedy: get a token. (§7, §5.1)',
  invalid_token: 'Token unknown, or its key revoked or rolled. Remedy: get a new token. (§7, §5.3)',
  token_expired: 'Token older than 60 minutes. Remedy: get a new token and retry. (§7, §5.2)',
  card_declined:
    'Card declined. `decline_code` has the reason. No order created, nothing charged. Remedy: update the card, send again with a new Idempotency-Key. (§7)',
  authentication_required:
    'The bank wants extra approval. No order created. Remedy: contact the operator. (§7)',
  payment_method_required:
    'The account bills a card but none is saved with permission for automatic charges. Remedy: add a card in billing. (§7)',
  payment_failed:
    'Payment could not be completed. No order created. Remedy: retry later or contact the operator. (§7)',
  insufficient_scope:
    'Token lacks the scope. `required_scope` names it. Remedy: use a key with that scope. (§7, §5.8)',
  ip_not_allowed:
    'Key is limited to IP addresses and the call came from another. Remedy: call from an allowed address. (§7, §5.9)',
  api_not_enabled:
    'Live key used before live access is on. Remedy: use the test key or ask for live access. (§7, §5.10)',
  sandbox_not_enabled: 'Test mode is off for the account. Remedy: ask for test mode. (§7, §5.10)',
  partner_suspended:
    'Partner account paused. Reads work, new orders are refused. Remedy: contact the operator. (§7, §5.11)',
  not_found:
    'No such object in the account, or it belongs to the other mode. Remedy: check the id and the mode. (§7)',
  idempotency_conflict:
    'Idempotency-Key already used with a different body. Remedy: use a new key for a different order. (§7, §4)',
  duplicate_external_id:
    'An order with this `external_id` exists. Remedy: fetch it by external id. (§7, §4)',
  not_cancellable:
    'Cancel window (24 hours) closed, production started, or already cancelled. `detail` says which. Remedy: contact the operator. (§7, §3)',
  account_incomplete:
    'The partner account lacks something needed to place orders. Remedy: contact the operator. (§7)',
  unsupported_media_type:
    'Body not sent as JSON. Remedy: send `Content-Type: application/json`. (§7, §4)',
  validation_failed:
    'Request cannot be accepted as sent. Each problem is in `errors[]`. Causes: missing required field, unknown field, SKU not on the product list, quantity under the product minimum, address outside the US, freight product, order over maximum order value or orders-per-day limit (the message names the limit). Remedy: fix what `errors[]` describes. (§7)',
  limit_exceeded:
    "New live key's probation limit exceeded, or a sixth webhook endpoint in one mode. Remedy: wait, or ask the operator to end probation. (§7, §3, §6)",
  rate_limited:
    'Too many requests. Response has header `Retry-After` in seconds. Remedy: wait, then retry. (§7, §8)',
  internal_error:
    'Fault on the service side. Nothing charged. Remedy: retry with the same Idempotency-Key. (§7, §4)',
  api_unavailable:
    'API switched off for maintenance. Nothing charged. Remedy: try again later. (§7)',
  read_only: 'Reads work. New orders and quotes are paused. Remedy: retry writes later. (§7)',
};

/** §7: errors are problem+json; clients rely on `code`. */
export const PROBLEM_SENTENCE =
  'Errors are `application/problem+json` (RFC 9457) with the fields of section 2. Client code must rely on `code`, which never changes. `title` and `detail` may be reworded. (§7)';

/** §1, §9 and the reading of "not shown" (target contract §2). */
export const INFO_SENTENCE =
  'The service is an HTTP API for partners who connect their store to a catalog of products: it reads the catalog, requests price quotes, places and cancels orders, reads orders, their shipments and invoices, reads the partner account, manages webhook endpoints and reads events (§1). The version is part of the path: `/api/on-demand/v1` (§9). Where the API document says "not shown", this description follows the dialect it was written for (the target contract\'s reference dialect, or a target profile).';

/** §5: authentication. */
export const AUTH_SENTENCE =
  "The service uses OAuth 2.0 client credentials. A key is exchanged at `POST /oauth/token` for a bearer token, and the token is sent on every other request. A token lasts 3600 seconds. A token carries the key's scopes, or the subset asked for with `scope`. (§5)";

/** §5 scopes table. */
export const SCOPE_SENTENCES = {
  'catalog:read': 'Allows `GET /catalog/…`, `POST /quotes`, `GET /quotes/{id}`. (§5 Scopes)',
  'orders:read':
    'Allows `GET /orders`, `GET /orders/{id}`, by-external-id, shipments, invoice. (§5 Scopes)',
  'orders:write': 'Allows `POST /orders`, `POST /orders/{id}/cancel`. (§5 Scopes)',
  'webhooks:manage': 'Allows `/webhook-endpoints` and `/events`. (§5 Scopes)',
} as const;

export type ScopeName = keyof typeof SCOPE_SENTENCES;
