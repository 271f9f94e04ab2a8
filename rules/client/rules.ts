import type { ClientRuleInput } from './schema.js';

/**
 * The client rules: every statement of the API document that tells a
 * partner's client what to do and that its traffic can show, one rule each
 * where the document says it once (statements.ts lists the others, with the
 * rule that judges them or why none can). Each rule's judge is in
 * lib/grading/judges/, under the same id.
 */
export const rules: ClientRuleInput[] = [
  {
    id: 'CLIENT-01',
    level: 'MUST',
    title:
      'MUST authenticate every token request with Authorization: Basic base64(Access Key ID:Secret Key)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
    },
    chance: 'token request (POST /oauth/token)',
    expects:
      'Every token request carries Authorization: Basic with the base64 of the Access Key ID, a colon and the Secret Key.',
  },
  {
    id: 'CLIENT-02',
    level: 'MUST',
    title: 'MUST send every token request as application/x-www-form-urlencoded',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Content-Type: application/x-www-form-urlencoded.',
    },
    chance: 'token request (POST /oauth/token)',
    expects:
      'Every token request has Content-Type: application/x-www-form-urlencoded (a charset parameter is fine).',
  },
  {
    id: 'CLIENT-03',
    level: 'MUST',
    title: 'MUST send grant_type=client_credentials in every token request',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Form field grant_type is required, value client_credentials.',
    },
    chance: 'token request (POST /oauth/token)',
    expects: 'Every token request has the form field grant_type=client_credentials, once.',
  },
  {
    id: 'CLIENT-04',
    level: 'MUST',
    title:
      'MUST ask only for scopes the key has, space-separated, when a token request names scope',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'Form field scope is optional: a space-separated list that asks for fewer scopes than the key has.',
    },
    chance: 'token request with the form field scope',
    expects:
      "A scope field, when sent, lists scopes of the key's own separated by single spaces (no commas, nothing the key lacks).",
  },
  {
    id: 'CLIENT-05',
    level: 'MUST',
    title: 'MUST send the Secret Key only in the Basic header of token requests, nowhere else',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: 'The Secret Key is sent only in the Basic header of the token request.',
    },
    chance: 'request',
    expects:
      'The Secret Key (plain, percent-encoded, JSON-escaped or in base64) appears in no URL, body or header but the Authorization: Basic header of a token request.',
  },
  {
    id: 'CLIENT-06',
    level: 'MUST',
    title:
      'MUST keep credentials out of URLs: no Secret Key, access token or Access Key ID in a path or query',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: [
        'A token, key or secret is in the URL.',
        'Send credentials in the Authorization header.',
      ],
    },
    chance: 'request',
    expects:
      'No URL holds the Secret Key, an access token or the Access Key ID; credentials travel in the Authorization header.',
  },
  {
    id: 'CLIENT-07',
    level: 'MUST',
    title: 'MUST send Authorization: Bearer with its token on every call but the token request',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: 'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>.',
    },
    chance: 'call to the API other than the token request',
    expects:
      'Every call under /api/on-demand/v1 but POST /oauth/token carries Authorization: Bearer and a token.',
  },
  {
    id: 'CLIENT-08',
    level: 'MUST',
    title:
      'MUST send at most 20 token requests a minute per key (a token is reused while it lasts)',
    section: '5',
    source: { doc: 'api', section: '5', quote: 'At most 20 token requests a minute per key.' },
    chance: 'token request (POST /oauth/token)',
    expects:
      'No 60 seconds hold more than 20 token requests: a token is kept and reused until it expires (the document does not say where a minute starts, so any 60 seconds count).',
  },
  {
    id: 'CLIENT-09',
    level: 'MUST',
    title: 'MUST request a new token after 401 token_expired and repeat the request with it',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: 'After that: 401 token_expired. A new token is requested and the request repeated.',
    },
    situations: ['token-expired'],
    chance: 'call answered 401 token_expired',
    expects:
      'After 401 token_expired the client never sends that token again, requests a new token and repeats the refused request with it.',
  },
  {
    id: 'CLIENT-10',
    level: 'MUST',
    title: 'MUST get a new token after 401 invalid_token and never send that token again',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['Token unknown, or its key revoked or rolled.', 'Get a new token.'],
    },
    chance: 'call answered 401 invalid_token (a token the sandbox does not know)',
    expects:
      'After 401 invalid_token the client never sends that token again; it requests a new one (or stops).',
  },
  {
    id: 'CLIENT-11',
    level: 'MUST',
    title:
      "MUST send every body but the token request's as JSON with Content-Type: application/json",
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Bodies are JSON (Content-Type: application/json) except the token request.',
    },
    chance: 'call with a body other than the token request',
    expects:
      'Every request body but the token request is JSON and sent with Content-Type: application/json.',
  },
  {
    id: 'CLIENT-12',
    level: 'MUST',
    title: 'MUST send an Idempotency-Key of 1 to 255 characters with every POST /orders',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Idempotency-Key is required, up to 255 characters.',
    },
    chance: 'order (POST /orders)',
    expects: 'Every POST /orders carries an Idempotency-Key header of 1 to 255 characters.',
  },
  {
    id: 'CLIENT-13',
    level: 'MUST',
    title:
      'MUST give each new order an Idempotency-Key of its own, never one used for another order',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Each new order is sent with a unique Idempotency-Key.',
    },
    chance: 'two orders with different external_ids',
    expects:
      'An Idempotency-Key sent with one external_id is never sent with another: each new order has a key of its own.',
  },
  {
    id: 'CLIENT-14',
    level: 'MUST',
    title:
      'MUST NOT repeat a request refused with 409 idempotency_conflict: the different order takes a new key',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: [
        'Idempotency-Key already used with a different body.',
        'Use a new key for a different order.',
      ],
    },
    chance: 'order answered 409 idempotency_conflict',
    expects:
      'After 409 idempotency_conflict the client never sends that body with that key again; it sends it, if at all, with a new key.',
  },
  {
    id: 'CLIENT-15',
    level: 'MUST',
    title: 'MUST retry an order that got 500 internal_error, with the same Idempotency-Key',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'After a 500 internal_error, the request is retried with the same key.',
    },
    situations: ['500-before', '500-after'],
    chance: 'order answered 500 internal_error',
    expects:
      'After 500 internal_error the order is sent again with the same Idempotency-Key (a new key could place it twice); an order stored before the 500 then comes back as a replay.',
  },
  {
    id: 'CLIENT-16',
    level: 'MUST',
    title: 'MUST send an order refused with a 402 again only with a new Idempotency-Key',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'After a 402 payment error no order exists. The order is sent again with a new key.',
    },
    situations: ['card-declined'],
    chance: 'order answered 402 (card_declined) and then sent again',
    expects:
      'An order refused with a 402 (card_declined, payment_failed, …) is sent again, if at all, with a new Idempotency-Key.',
  },
  {
    id: 'CLIENT-17',
    level: 'MUST',
    title: 'MUST fetch the order by its external id after 409 duplicate_external_id',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['An order with this external_id exists.', 'Fetch it by external id.'],
    },
    situations: ['duplicate-external-id'],
    chance: 'order answered 409 duplicate_external_id',
    expects:
      'After 409 duplicate_external_id the client fetches the existing order with GET /orders/by-external-id/{external_id}.',
  },
  {
    id: 'CLIENT-18',
    level: 'MUST',
    title: 'MUST wait the Retry-After of a 429 before sending the request again, then retry',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['Response has header Retry-After in seconds.', 'Wait, then retry.'],
    },
    situations: ['429-token', '429-read', '429-write'],
    chance: 'request answered 429 rate_limited',
    expects:
      'After 429 rate_limited the client sends the request again, and not before the Retry-After seconds have passed.',
  },
  {
    id: 'CLIENT-19',
    level: 'MUST',
    title: 'MUST retry a write refused with 503 read_only later, not at once',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['Reads work. New orders and quotes are paused.', 'Retry writes later.'],
    },
    situations: ['read-only'],
    chance: 'write answered 503 read_only',
    expects:
      "After 503 read_only the write is sent again later: not before the answer's Retry-After (the sandbox sends one).",
  },
  {
    id: 'CLIENT-20',
    level: 'MUST',
    title: 'MUST try a request refused with 503 api_unavailable again later, not at once',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['API switched off for maintenance. Nothing charged.', 'Try again later.'],
    },
    situations: ['unavailable'],
    chance: 'request answered 503 api_unavailable',
    expects:
      "After 503 api_unavailable the request is sent again later: not before the answer's Retry-After (the sandbox sends one).",
  },
  {
    id: 'CLIENT-21',
    level: 'MUST',
    title: 'MUST rely on code: react to an error the same way whatever its title and detail say',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote:
        'Client code must rely on code, which never changes. title and detail may be reworded.',
    },
    situations: ['reworded'],
    chance: 'situation played a second time with its title and detail reworded',
    expects:
      'A situation the client handled with the usual words is handled the same way when only its title and detail are reworded.',
  },
  {
    id: 'CLIENT-22',
    level: 'MUST',
    title: 'MUST put an external_id in every order, and never reuse one for a different order',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Body: must contain external_id, unique per account.',
    },
    chance: 'order (POST /orders)',
    expects:
      'Every order body has a non-empty external_id; an external_id of a placed order is sent again only with that same order.',
  },
  {
    id: 'CLIENT-23',
    level: 'MUST',
    title: 'MUST NOT send a request refused with 422 validation_failed again unchanged',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: ['Request cannot be accepted as sent.', 'Fix what errors[] describes.'],
    },
    chance: 'request answered 422 validation_failed',
    expects:
      'A request refused with 422 validation_failed is never sent again as it was: the client fixes what errors[] names first.',
  },
];
