/**
 * Test-only switches that each break one documented rule of the reference on
 * purpose, so that the suite can be proven to fail a broken server and name
 * the rule (the fault matrix, test/faults/). Set only in-process through
 * `buildApp({ defects })` / `startServer({ defects })`: no HTTP route, control
 * call, CLI flag or environment variable reaches them. Only code under
 * server/defects/ asks `ctx.hasDefect('<name>')`: the defective variants it
 * holds plug into the request path through the typed hooks of context.ts
 * (`DefectHooks`, filled by defects/hooks.ts) and the answer hook
 * (defects/answers.ts), both only when a defect is switched on. Which rule
 * each one breaks is the test side's knowledge, never the server's.
 */
export const DEFECTS = Object.freeze({
  // Token endpoint (§2 access token response, §4, §5).
  'token-expires-in-3700': 'the token response says expires_in 3700',
  'token-type-lowercase': 'the token response says token_type "bearer"',
  'token-default-scopes-partial': 'a token asked for no scope lacks webhooks:manage',
  'token-scope-subset-ignored': 'a token asked for a subset of scopes gets all of the key',
  'token-scope-beyond-key-granted':
    'a scope request beyond the key gets a token of the scopes held',
  'token-grant-type-unchecked':
    'a token request without grant_type=client_credentials gets a token',
  'secret-in-token-form-accepted':
    'a Secret Key in the token request form is ignored, a token issued',
  'token-form-body-ignored':
    'the token endpoint reads only JSON bodies: a form body is refused for want of grant_type',
  'token-scope-as-list': 'the token response gives scope as a JSON list, not a string',
  'token-shape-without-at': 'access tokens are shaped tok_<chars>, not <prefix>_at_<chars>',
  'wrong-secret-accepted': 'a known Access Key ID gets a token whatever the Secret Key',
  // Bearer tokens and their lifetime (§5 rules 1-3).
  'token-lives-3700s': 'a token is served until it is 3700 seconds old',
  'token-expires-at-3500s': 'a token expires when 3500 seconds old',
  'token-expired-as-invalid': 'an expired token is answered 401 invalid_token, not token_expired',
  'missing-bearer-as-invalid-token': 'a call without Authorization is answered 401 invalid_token',
  'token-scheme-accepted': 'Authorization: Token <token> is served like Bearer',
  'malformed-token-as-unauthorized': 'a token not of the token shape is answered 401 unauthorized',
  'bearer-scheme-hashed':
    'a valid token is answered 401 invalid_token: the lookup hashes "Bearer <token>"',
  'token-age-from-first-token':
    "a key's new tokens are aged from its first token, so they expire together",
  // Roll and revoke (§3 API key).
  'roll-keeps-old-secret': 'after a roll the old Secret Key still gets tokens',
  'roll-keeps-old-tokens': 'after a roll the tokens made with the old Secret Key still work',
  'roll-answers-wrong-secret': 'a roll answers a Secret Key other than the one it stores',
  'revoke-keeps-tokens': "a revoked key's tokens keep working",
  'revoked-key-issues-tokens': 'a revoked key still gets tokens',
  'ten-keys-no-tokens': 'an account with ten active keys gets no tokens (the limit counts nine)',
  'live-key-ids-marked-test': 'live keys get Access Key IDs marked test',
  // Scopes (§5 rule 8, scope table).
  'cancel-scope-not-enforced': 'POST /orders/{id}/cancel serves any token, orders:write or not',
  'required-scope-missing': 'insufficient_scope answers carry no required_scope',
  'account-needs-orders-read': 'GET /account needs orders:read',
  // Credentials in URLs and bodies (§5 rules 4, 6).
  'query-token-accepted':
    'an access token in the query string is not refused as credentials_in_url',
  'query-secret-accepted': 'a Secret Key in the query string is not refused as credentials_in_url',
  'secret-in-body-accepted': 'a Secret Key in the body of an API call is not refused',
  // IP allowlist (§5 rule 9).
  'ip-allowlist-ignored': "a key's IP allowlist is not enforced",
  'ip-allowlist-ranges-ignored': 'allowlist CIDR ranges match only their first address',
  // Account states (§5 rules 10-11, §7).
  'live-key-before-live-access': 'a live key works before live access is switched on',
  'sandbox-not-enforced': 'a test key works while test mode is off',
  'suspended-orders-placed': 'a suspended account still places orders',
  'suspended-blocks-reads': 'a suspended account is refused reads too',
  'incomplete-not-enforced': 'an incomplete account still places orders',
  'live-refusal-remembered':
    'a live key refused before live access stays refused after it is switched on',
  // Rate limits (§8).
  'read-limit-400': 'reads are limited at 400 a minute, not 300',
  'writes-not-limited': 'writes are not rate limited',
  'token-limit-off': 'token requests are not rate limited',
  'retry-after-missing': '429 rate_limited answers carry no Retry-After',
  'retry-after-too-short': 'Retry-After is 5 seconds short of the window reset',
  'rate-limit-per-account': 'rate limits are counted per account, not per key',
  'token-refusal-blocks-calls': 'a key refused a token request is refused every call until reset',
  // Idempotency (§4 POST /orders and its idempotency rules).
  'idem-missing-key-accepted': 'POST /orders without Idempotency-Key places the order',
  'idem-key-max-200': 'Idempotency-Keys over 200 characters are refused',
  'idem-key-max-254':
    'an Idempotency-Key of exactly 255 characters is refused (the limit counts 254)',
  'idem-256-key-accepted': 'an Idempotency-Key of 256 characters is accepted',
  'idem-replay-201': 'a replay is answered 201, not 200',
  'idem-replay-without-header': 'a replay carries no Idempotent-Replayed: true',
  'idem-replay-new-id': 'a replay answers the order under a new id',
  'idem-raw-body-compared': 'the same JSON with other key order or white space is a conflict',
  'idem-conflict-replays': 'the same key with a different body replays the first order',
  'idem-race-unserialized': 'an identical request arriving while one is in flight is not replayed',
  'idem-after-commit-record-lost': 'a 500 after commit loses the idempotency record',
  'idem-before-commit-burns-key':
    'a 500 before commit leaves the key taken: the retry is a conflict',
  'idem-keys-across-accounts': 'Idempotency-Keys are looked up across accounts',
  'idem-keys-across-modes': 'Idempotency-Keys are looked up across modes',
  'idem-replay-across-accounts':
    "a request with another account's Idempotency-Key and body is answered with that account's order",
  'idem-replay-across-modes':
    "a request with the other mode's Idempotency-Key and body is answered with that mode's order",
  'idem-records-expire-1h': 'idempotency records are forgotten after one hour',
  'declined-external-id-kept':
    'an order refused with 402 keeps its external_id: sent again with a new key it is a 409',
  // Order body and limits (§4 rules 1-5, §8).
  'order-any-media-type': 'an order body is read as JSON whatever its Content-Type',
  'order-external-id-optional': 'an order without external_id is given one',
  'order-postal-code-optional': 'shipping_address.postal_code is not required',
  'order-unknown-field-ignored': 'unknown top-level fields of an order are dropped, not refused',
  'order-unknown-sku-accepted': 'a SKU not on the product list is ordered at no charge',
  'order-min-quantity-ignored': "a quantity under the product's minimum is accepted",
  'order-non-us-accepted': 'an address outside the US is accepted',
  'order-freight-accepted': 'a freight-shipped product is accepted',
  'order-max-value-ignored': 'an order over the maximum order value is accepted',
  'order-max-value-exclusive': 'an order of exactly the maximum order value is refused',
  'orders-per-day-ignored': 'the maximum orders per day is not enforced',
  'orders-per-day-skips-cancelled': 'cancelled orders do not count toward orders per day',
  'orders-per-day-across-modes': "orders per day count both modes' orders",
  'duplicate-external-id-unchecked':
    'a used external_id is not refused 409 (the database answers 500)',
  'by-external-id-undecoded': 'GET /orders/by-external-id compares the still-encoded path',
  'order-zip4-refused': 'a ZIP+4 postal code (12345-6789) is refused',
  'validation-errors-empty': 'an order refused 422 validation_failed lists nothing in errors[]',
  // Payments (§7 402 codes).
  'declined-as-payment-failed': 'a declined card is answered 402 payment_failed',
  'decline-code-missing': 'card_declined carries no decline_code',
  'auth-required-as-payment-failed': 'a payment the bank wants approved is answered payment_failed',
  'no-card-as-card-declined': 'a card-billed account without a card is answered card_declined',
  'payment-failed-as-auth-required':
    'a payment that cannot complete is answered authentication_required',
  'decline-code-on-every-402': 'every 402 carries a decline_code',
  'order-kept-after-402': 'an order refused with 402 is stored all the same',
  'invoice-billing-charged': 'an invoice-billed account is charged to the card on file',
  'valid-card-declined': 'a saved card that works is declined all the same',
  // Probation of new live keys (§3).
  'probation-orders-unlimited': "probation's 3-order limit is not enforced",
  'probation-value-unlimited': "probation's $500.00 limit is not enforced",
  'probation-never-lifted': 'probation does not end after the first 24 hours',
  'end-probation-ignored': 'ending probation early has no effect',
  'probation-skips-cancelled': 'cancelled orders do not count toward probation',
  'probation-per-account': "probation counts every live key's orders of the account",
  'probation-on-test-keys': 'new test keys are held to probation',
  // Cancellation (§3).
  'cancel-after-window': 'an order is cancelled after the 24-hour window',
  'cancel-window-23h': 'the cancel window closes after 23 hours',
  'cancel-window-wrong-code': 'a cancel after the window is answered 422 validation_failed',
  'cancel-after-production': 'an order is cancelled after production started',
  'cancel-production-detail-window':
    'a cancel after production starts is said to be past the window',
  'cancel-twice': 'a cancelled order is cancelled again with 200',
  'cancel-refused-first-hour':
    'an order is not cancellable in its first hour (production is said to have started)',
  // Modes and ownership (§1, §7 not_found).
  'test-key-sees-live-orders': 'a test key reads, finds and cancels live orders',
  'live-key-sees-test-quotes': 'a live key reads test quotes',
  'test-key-lists-live-orders': "a test key's GET /orders lists the account's live orders",
  'other-account-orders-visible': "GET /orders/{id} reads another account's order",
  'other-account-found-by-external-id':
    "GET /orders/by-external-id finds another account's order of the mode",
  'other-account-orders-listed': "GET /orders lists other accounts' orders of the mode",
  'other-account-quotes-visible': "GET /quotes/{id} reads another account's quote",
  'unknown-id-as-422': 'an order id that does not exist is answered 422 validation_failed',
  // Webhook endpoints (§6).
  'sixth-webhook-endpoint-accepted': 'a sixth webhook endpoint in one mode is accepted',
  'webhook-limit-across-modes': 'the five webhook endpoints are counted across both modes',
  'deleted-endpoints-counted': 'deleted webhook endpoints count toward the five',
  'events-without-webhooks-scope': 'GET /events serves any token, webhooks:manage or not',
  // Service states (§7 read_only, api_unavailable).
  'read-only-orders-placed': 'while read_only, new orders are placed',
  'read-only-quotes-created': 'while read_only, new quotes are made',
  'read-only-blocks-reads': 'while read_only, reads are refused too',
  'read-only-blocks-tokens': 'while read_only, token requests are refused',
  'unavailable-ignored': 'while the API is switched off, calls are served',
  // Problem details (§2 error object, §7).
  'problem-as-plain-json': 'errors are sent as application/json',
  'problem-request-id-missing': 'problems carry no request_id',
  'problem-title-missing': 'problems carry no title',
  'problem-code-renamed': 'a missing token is answered with the code unauthenticated',
  'problem-type-underscores': 'problem type URIs keep the underscores of the code',
  'problem-status-field-400': 'the status field of every problem is 400',
  'problem-instance-route-pattern': 'instance is the route pattern, not the request path',
  'problem-not-found-410': 'not_found is sent with HTTP 410',
  'problem-required-scope-everywhere': 'every 403 carries required_scope',
  'problem-errors-without-detail': 'errors[] entries carry message instead of detail',
  'problem-errors-without-pointer': 'errors[] entries carry a detail but no pointer to the field',
  // Reads (§2 account, §4).
  'account-default-limits': 'GET /account shows the default limits, not the account\u2019s',
  'account-all-scopes': 'GET /account shows all four scopes whatever the key holds',
  'account-livemode-false': 'GET /account says livemode false for live keys',
  'account-billing-invoice': 'GET /account says billing_method invoice for card accounts',
  'quote-not-readable': 'GET /quotes/{id} answers 404 for the quote just made',
  'order-list-omits-newest': 'GET /orders leaves out the newest order',
  'invoice-never-issued': 'a shipped order has no invoice',
  'account-limits-flat': 'GET /account gives the limits as top-level fields, with no object limits',
  'catalog-needs-orders-read': 'GET /catalog/… needs orders:read instead of catalog:read',
  'order-read-without-external-id': 'GET /orders/{id} leaves external_id out of the order',
  'shipments-not-listed': 'GET /orders/{id}/shipments answers {shipments: […]}, no list under data',
  'shipments-not-found':
    'GET /orders/{id}/shipments answers 404 not_found for an order the caller can read',
  'events-need-orders-read': 'GET /events needs orders:read instead of webhooks:manage',
  // Sequences of orders, replays, cancels and clock moves (§3, §4).
  'external-id-lookup-forgets-after-day':
    'GET /orders/by-external-id finds only orders placed in the last 24 hours',
  // Scoped statements applied too widely (issue 12; server/defects/scope-too-wide.ts).
  'live-access-off-refuses-test-keys':
    'with live access off, test keys are refused with 403 api_not_enabled too',
  'sandbox-off-refuses-live-keys':
    'with test mode off, live keys are refused with 403 sandbox_not_enabled too',
  'revoke-revokes-account-keys': 'revoking a key revokes every other active key of its account',
  'external-id-unique-across-accounts':
    'an external_id used in another account is refused with 409 duplicate_external_id',
} as const satisfies Record<string, string>);

export type DefectName = keyof typeof DEFECTS;

/** Every defect name, in catalogue order. */
export const DEFECT_NAMES: readonly DefectName[] = Object.freeze(
  Object.keys(DEFECTS) as DefectName[],
);

/** What helpers outside a request's reach are given, to ask about a defect by checked name. */
export type HasDefect = (name: DefectName) => boolean;

export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name);
}

/**
 * The `hasDefect` of one app. An unknown name is refused at once: a typo in a
 * test would otherwise start a correct server and prove nothing.
 */
export function defectSet(defects: readonly string[] | undefined): HasDefect {
  const unknown = (defects ?? []).filter((name) => !isDefectName(name));
  if (unknown.length > 0) {
    throw new Error(`unknown defect ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  }
  const active = new Set<string>(defects);
  return (name) => active.has(name);
}
