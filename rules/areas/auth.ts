import { areaRules } from '../schema.js';

/** Bearer authentication and the token lifecycle (API document sections 3 and 5; RFC 6750). */
export const rules = areaRules([
  {
    id: 'AUTH-01',
    level: 'MUST',
    title: 'MUST serve an API call that carries a valid bearer token in Authorization',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: [
        'A key is exchanged at POST /oauth/token for a bearer token, and the token is sent on every other request.',
        'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>.',
      ],
    },
  },
  {
    id: 'AUTH-02',
    level: 'MUST',
    title: 'MUST answer an API call without an Authorization header with 401 unauthorized',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>. Without it: 401 unauthorized.',
    },
  },
  {
    id: 'AUTH-03',
    level: 'MUST',
    title:
      'MUST answer an API call whose Authorization is not a Bearer credential with 401 unauthorized',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>. Without it: 401 unauthorized.',
    },
  },
  {
    id: 'AUTH-04',
    level: 'MUST',
    key: 'none',
    title: 'MUST answer an unknown bearer token with 401 invalid_token (generated tokens)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: 'An unknown token, or one whose key was revoked or rolled, gives 401 invalid_token.',
    },
  },
  {
    id: 'AUTH-05',
    level: 'MUST',
    title: 'MUST keep serving a token 3599 seconds after it was issued',
    section: '5',
    needs: ['accounts', 'keys', 'clock'],
    source: { doc: 'api', section: '5', quote: 'A token lasts 3600 seconds.' },
  },
  {
    id: 'AUTH-06',
    level: 'MUST',
    title: 'MUST answer a token older than 3600 seconds (3601) with 401 token_expired',
    section: '5',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '5',
      quote: 'A token lasts 3600 seconds. After that: 401 token_expired.',
    },
  },
  {
    id: 'AUTH-07',
    level: 'MUST',
    title: 'MUST serve the repeated request with a new token after token_expired',
    section: '5',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '5',
      quote: 'After that: 401 token_expired. A new token is requested and the request repeated.',
    },
  },
  {
    id: 'AUTH-08',
    level: 'SHOULD',
    key: 'none',
    title:
      'SHOULD challenge with WWW-Authenticate: Bearer on every 401 of an API call (RFC 6750 §3)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'A key is exchanged at POST /oauth/token for a bearer token, and the token is sent on every other request.',
      rfc: 'RFC 6750 §3',
    },
  },
  {
    id: 'AUTH-09',
    level: 'SHOULD',
    key: 'none',
    title:
      'SHOULD NOT put an error attribute in the challenge when the request sent no credentials (RFC 6750 §3.1)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>. Without it: 401 unauthorized.',
      rfc: 'RFC 6750 §3.1',
    },
  },
  {
    id: 'AUTH-10',
    level: 'SHOULD',
    key: 'none',
    title:
      'SHOULD put error="invalid_token" in the challenge for an unknown or expired token (RFC 6750 §3.1)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: [
        'An unknown token, or one whose key was revoked or rolled, gives 401 invalid_token.',
        'After that: 401 token_expired.',
      ],
      rfc: 'RFC 6750 §3.1',
    },
  },
  {
    id: 'AUTH-11',
    level: 'SHOULD',
    title: 'SHOULD accept the Bearer scheme name in any letter case (RFC 9110 §11.1)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: 'Every call except the token request carries Authorization: Bearer <ACCESS_TOKEN>.',
      rfc: 'RFC 9110 §11.1',
    },
  },
  {
    id: 'AUTH-12',
    level: 'DIALECT',
    title:
      'DIALECT count token age to the millisecond: a token 3600 s and a few ms old (the call after a 3600 s move) is token_expired',
    section: 'C2',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'A token is valid while it is at most 3600 seconds old: MUST checks use 3599 (works) and 3601 (token_expired); exactly 3600 is DIALECT.',
    },
  },
]);
