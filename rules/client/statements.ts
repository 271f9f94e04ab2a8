/**
 * Every statement of the API document addressed to the client, with the
 * client rule that judges it, or why no traffic can show whether a client
 * keeps it. Where the document says one thing twice (section 4's rule and
 * section 7's remedy), one rule judges both and the other statement points
 * at it, so that a client breaking it is broken on one rule. A test finds
 * each quote verbatim in its section and each rule id in the catalogue.
 */
export interface ClientStatement {
  /** Top-level section of the API document. */
  section: string;
  /** Verbatim, up to white space and Markdown marks. */
  quote: string;
  /** The client rule that judges it. */
  rule?: string;
  /** Why no rule judges it, or how the rule named judges it. */
  note?: string;
}

const PERSON =
  "a person's act (the developer portal, the operator or support): no request of the client shows it";

export const CLIENT_STATEMENTS: readonly ClientStatement[] = [
  {
    section: '1',
    quote: 'Live keys place real orders.',
    note: 'the sandbox hands the client a test key; which orders are real is the service’s, not the traffic’s',
  },
  { section: '2', quote: 'Safe to log.', note: 'a permission (the Access Key ID), not a duty' },
  {
    section: '2',
    quote: 'Secret. Shown once, when the key is created or rolled.',
    rule: 'CLIENT-05',
    note: 'what traffic shows of keeping it secret: where it travels (also CLIENT-06)',
  },
  { section: '2', quote: 'For people. May be reworded.', rule: 'CLIENT-21' },
  { section: '2', quote: 'Stable machine-readable code. Never changes.', rule: 'CLIENT-21' },
  { section: '2', quote: 'To be quoted when contacting support.', note: PERSON },
  {
    section: '3',
    quote:
      'A possibly leaked live Secret Key is revoked and a new key requested from the operator.',
    note: PERSON,
  },
  {
    section: '4',
    quote: 'Bodies are JSON (Content-Type: application/json) except the token request.',
    rule: 'CLIENT-11',
  },
  {
    section: '4',
    quote: 'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
    rule: 'CLIENT-01',
  },
  {
    section: '4',
    quote: 'Header Content-Type: application/x-www-form-urlencoded.',
    rule: 'CLIENT-02',
  },
  {
    section: '4',
    quote: 'Form field grant_type is required, value client_credentials.',
    rule: 'CLIENT-03',
  },
  {
    section: '4',
    quote:
      'Form field scope is optional: a space-separated list that asks for fewer scopes than the key has.',
    rule: 'CLIENT-04',
  },
  {
    section: '4',
    quote: 'Header Idempotency-Key is required, up to 255 characters.',
    rule: 'CLIENT-12',
  },
  {
    section: '4',
    quote: 'Header Content-Type: application/json. Otherwise 415 unsupported_media_type.',
    rule: 'CLIENT-11',
  },
  { section: '4', quote: 'Body: must contain external_id, unique per account.', rule: 'CLIENT-22' },
  {
    section: '4',
    quote: "Every SKU must be on the account's product list.",
    rule: 'CLIENT-23',
    note: 'the five rules for the order body are kept by the sandbox, which refuses a breach with 422 validation_failed; the client’s part is not to send it again unchanged',
  },
  {
    section: '4',
    quote: "Each quantity must meet the product's minimum.",
    rule: 'CLIENT-23',
  },
  { section: '4', quote: 'The address must be in the US.', rule: 'CLIENT-23' },
  { section: '4', quote: 'Freight-shipped products are refused.', rule: 'CLIENT-23' },
  {
    section: '4',
    quote: "The order must not exceed the account's maximum order value or maximum orders per day.",
    rule: 'CLIENT-23',
  },
  {
    section: '4',
    quote: 'Each new order is sent with a unique Idempotency-Key.',
    rule: 'CLIENT-13',
  },
  {
    section: '4',
    quote: 'The existing order is fetched with GET /orders/by-external-id/{external_id}.',
    rule: 'CLIENT-17',
  },
  {
    section: '4',
    quote: 'After a 402 payment error no order exists. The order is sent again with a new key.',
    rule: 'CLIENT-16',
  },
  {
    section: '4',
    quote: 'After a 500 internal_error, the request is retried with the same key.',
    rule: 'CLIENT-15',
  },
  {
    section: '5',
    quote:
      'A key is exchanged at POST /oauth/token for a bearer token, and the token is sent on every other request.',
    rule: 'CLIENT-07',
  },
  {
    section: '5',
    quote: 'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>.',
    rule: 'CLIENT-07',
  },
  {
    section: '5',
    quote: 'After that: 401 token_expired. A new token is requested and the request repeated.',
    rule: 'CLIENT-09',
  },
  {
    section: '5',
    quote: 'The Secret Key is sent only in the Basic header of the token request.',
    rule: 'CLIENT-05',
  },
  { section: '5', quote: 'That key should then be rolled.', note: PERSON },
  { section: '5', quote: 'At most 20 token requests a minute per key.', rule: 'CLIENT-08' },
  { section: '5', quote: 'The key should then be rolled.', note: PERSON },
  {
    section: '7',
    quote: 'Client code must rely on code, which never changes. title and detail may be reworded.',
    rule: 'CLIENT-21',
  },
  { section: '7', quote: 'Send credentials in the Authorization header.', rule: 'CLIENT-06' },
  { section: '7', quote: 'Roll the key.', note: PERSON },
  { section: '7', quote: 'Add the header.', rule: 'CLIENT-12' },
  { section: '7', quote: 'Get a token.', rule: 'CLIENT-07' },
  { section: '7', quote: 'Get a new token.', rule: 'CLIENT-10' },
  { section: '7', quote: 'Get a new token and retry.', rule: 'CLIENT-09' },
  {
    section: '7',
    quote: 'Update the card, send again with a new Idempotency-Key.',
    rule: 'CLIENT-16',
    note: 'updating the card is a person’s act; the key of the order sent again is judged',
  },
  {
    section: '7',
    quote: 'Contact the operator.',
    note: `${PERSON} (authentication_required, partner_suspended, not_cancellable, account_incomplete)`,
  },
  { section: '7', quote: 'Add a card in billing.', note: PERSON },
  {
    section: '7',
    quote: 'Retry later or contact the operator.',
    rule: 'CLIENT-16',
    note: 'payment_failed: the key of the order sent again is judged; the sandbox plays card_declined, not payment_failed',
  },
  {
    section: '7',
    quote: 'Use a key with that scope.',
    note: 'another key is a person’s act; the sandbox gives the client one key with all four scopes',
  },
  {
    section: '7',
    quote: 'Call from an allowed address.',
    note: 'the sandbox sets no IP allowlist on the client’s key',
  },
  { section: '7', quote: 'Use the test key or ask for live access.', note: PERSON },
  { section: '7', quote: 'Ask for test mode.', note: PERSON },
  {
    section: '7',
    quote: 'Check the id and the mode.',
    note: 'which id the client meant is not in its traffic',
  },
  { section: '7', quote: 'Use a new key for a different order.', rule: 'CLIENT-14' },
  { section: '7', quote: 'Fetch it by external id.', rule: 'CLIENT-17' },
  { section: '7', quote: 'Send Content-Type: application/json.', rule: 'CLIENT-11' },
  { section: '7', quote: 'Fix what errors[] describes.', rule: 'CLIENT-23' },
  {
    section: '7',
    quote: 'Wait, or ask the operator to end probation.',
    note: 'probation and the webhook endpoint limit: the sandbox gives a test key, never on probation',
  },
  { section: '7', quote: 'Wait, then retry.', rule: 'CLIENT-18' },
  { section: '7', quote: 'Retry with the same Idempotency-Key.', rule: 'CLIENT-15' },
  { section: '7', quote: 'Try again later.', rule: 'CLIENT-20' },
  { section: '7', quote: 'Retry writes later.', rule: 'CLIENT-19' },
  {
    section: '8',
    quote: 'Reads (GET) | 300 requests per minute per key',
    note: 'a limit the service keeps with 429 rate_limited; the client’s part is CLIENT-18 (wait, then retry). The token limit, which section 5 states as the client’s, is CLIENT-08',
  },
  {
    section: '8',
    quote: 'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
    note: 'as reads: CLIENT-18 judges what the client does about a 429',
  },
  {
    section: '9',
    quote: 'Error code values never change. title and detail may be reworded.',
    rule: 'CLIENT-21',
  },
  {
    section: '9',
    quote: 'The version is part of the path: /api/on-demand/v1.',
    note: 'a client that calls another path gets 404 not_found and nothing happens; there is no behaviour to judge',
  },
];
