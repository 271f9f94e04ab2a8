import { areaRules } from '../schema.js';

/**
 * The error object (API document sections 2 and 7; RFC 9457), checked on a
 * broad set of errors each check provokes: auth, scope, URL credentials,
 * idempotency, media type, validation, unknown objects and paths, and with
 * the control API account states, expiry and rate limits.
 */
export const rules = areaRules([
  {
    id: 'ERR-01',
    level: 'MUST',
    title: 'MUST send every error as application/problem+json',
    section: '7',
    provokes429: true,
    source: {
      doc: 'api',
      section: '7',
      quote: 'Errors are application/problem+json (RFC 9457) with the fields of section 2.',
    },
  },
  {
    id: 'ERR-02',
    level: 'MUST',
    title:
      'MUST give every error type, title, status, detail, instance, code and request_id, each of its documented type',
    section: '2',
    provokes429: true,
    source: {
      doc: 'api',
      section: '2',
      quote: [
        'type | string (URI)',
        'title | string | For people.',
        'status | integer | HTTP status.',
        'detail | string | For people.',
        'instance | string | Request path.',
        'code | string | Stable machine-readable code.',
        'request_id | string | To be quoted when contacting support.',
      ],
    },
  },
  {
    id: 'ERR-03',
    level: 'MUST',
    title:
      'MUST set type to {docs_url}/errors#error-<code>, underscores written as hyphens, one docs_url for all',
    section: '2',
    provokes429: true,
    source: {
      doc: 'api',
      section: '2',
      quote:
        "Address of the error's documentation: {docs_url}/errors#error-<code>, with underscores in the code written as hyphens.",
    },
  },
  {
    id: 'ERR-04',
    level: 'MUST',
    title: 'MUST set the status field to the HTTP status of the answer',
    section: '2',
    provokes429: true,
    source: { doc: 'api', section: '2', quote: 'status | integer | HTTP status.' },
  },
  {
    id: 'ERR-05',
    level: 'MUST',
    title: 'MUST set instance to the request path',
    section: '2',
    provokes429: true,
    source: { doc: 'api', section: '2', quote: 'instance | string | Request path.' },
  },
  {
    id: 'ERR-06',
    level: 'MUST',
    title:
      'MUST use only the codes of the error table, each with the HTTP status the table gives it',
    section: '7',
    provokes429: true,
    source: {
      doc: 'api',
      section: '7',
      quote: [
        'Errors are application/problem+json (RFC 9457) with the fields of section 2. Client code must rely on code, which never changes.',
        'Status | Code | Condition | Remedy',
      ],
    },
  },
  {
    id: 'ERR-07',
    level: 'MUST',
    title:
      'MUST carry decline_code only on card_declined and required_scope only on insufficient_scope',
    section: '2',
    provokes429: true,
    source: {
      doc: 'api',
      section: '2',
      quote: [
        "decline_code | string | Only on card_declined: the bank's reason.",
        'required_scope | string | Only on insufficient_scope: the scope needed.',
      ],
    },
  },
  {
    id: 'ERR-08',
    level: 'MUST',
    title:
      'MUST list validation_failed problems in errors[], and give every errors[] entry a detail',
    section: '2',
    provokes429: true,
    source: { doc: 'api', section: '2', quote: 'errors | array of objects | Each has detail.' },
  },
  {
    id: 'ERR-09',
    level: 'SHOULD',
    title:
      'SHOULD keep stack traces, internal paths and driver messages out of every title and detail',
    section: '7',
    provokes429: true,
    source: {
      doc: 'api',
      section: '7',
      quote: 'Errors are application/problem+json (RFC 9457) with the fields of section 2.',
      rfc: 'RFC 9457 §5',
    },
  },
  {
    id: 'ERR-10',
    level: 'SHOULD',
    title: 'SHOULD give every error answer a request_id of its own',
    section: '2',
    provokes429: true,
    source: {
      doc: 'api',
      section: '2',
      quote: 'request_id | string | To be quoted when contacting support.',
    },
  },
  {
    id: 'ERR-11',
    level: 'SHOULD',
    title: 'SHOULD answer an unknown path under the API base with 404 not_found',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
      rfc: 'RFC 9110 §15.5.5',
    },
  },
  {
    id: 'ERR-12',
    level: 'DIALECT',
    title: 'DIALECT answer a malformed JSON body with 422 validation_failed',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Malformed JSON and bad query parameters get 422 validation_failed (pointer "" or the parameter\'s name) in the reference (DIALECT).',
    },
  },
  {
    id: 'ERR-13',
    level: 'MUST',
    title:
      'MUST list each problem of a body that breaks several rules at once in errors[], one entry per problem',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote:
        '422 | validation_failed | Request cannot be accepted as sent. Each problem is in errors[].',
    },
  },
]);
