import { areaRules } from '../schema.js';

/**
 * Rate limits (API document sections 5, 7 and 8). Every check here needs keys
 * made for it: a burst on a shared partner key would starve the rest of the run.
 */
export const rules = areaRules([
  {
    id: 'RATE-01',
    level: 'MUST',
    title: 'MUST serve 300 reads a minute per key and refuse the 301st with 429 rate_limited',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Over any rate limit | 429 rate_limited with Retry-After in seconds',
      ],
    },
  },
  {
    id: 'RATE-02',
    level: 'MUST',
    title: 'MUST serve 60 writes a minute per key and refuse the 61st with 429 rate_limited',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
        'Over any rate limit | 429 rate_limited with Retry-After in seconds',
      ],
    },
  },
  {
    id: 'RATE-03',
    level: 'MUST',
    title:
      'MUST serve 20 token requests a minute per key and refuse the 21st with 429 rate_limited',
    section: '5',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: { doc: 'api', section: '5', quote: 'At most 20 token requests a minute per key.' },
  },
  {
    id: 'RATE-04',
    level: 'MUST',
    title: 'MUST send Retry-After in seconds with every 429 rate_limited',
    section: '7',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote:
        '429 | rate_limited | Too many requests. Response has header Retry-After in seconds. | Wait, then retry.',
    },
  },
  {
    id: 'RATE-05',
    level: 'SHOULD',
    title: 'SHOULD give Retry-After as a whole number of seconds, at least 1 (RFC 9110 §10.2.3)',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: 'Over any rate limit | 429 rate_limited with Retry-After in seconds',
      rfc: 'RFC 9110 §10.2.3',
    },
  },
  {
    id: 'RATE-06',
    level: 'MUST',
    title: 'MUST serve the call again once Retry-After seconds have passed on the account clock',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '8',
      quote: 'Over any rate limit | 429 rate_limited with Retry-After in seconds',
    },
  },
  {
    id: 'RATE-07',
    level: 'MUST',
    title:
      "MUST keep limits per key: one key's exhausted limit leaves another key of the account working",
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
        'POST /oauth/token | 20 requests per minute per key',
      ],
    },
  },
  {
    id: 'RATE-08',
    level: 'MUST',
    title:
      'MUST count token requests apart from reads and writes: an exhausted token limit leaves calls working',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
        'POST /oauth/token | 20 requests per minute per key',
      ],
    },
  },
  {
    id: 'RATE-09',
    level: 'SHOULD',
    title:
      'SHOULD send RateLimit and RateLimit-Policy headers, when sent at all, as valid structured fields (RFC 9651)',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: 'Over any rate limit | 429 rate_limited with Retry-After in seconds',
      rfc: 'RFC 9651 §3',
    },
  },
  {
    id: 'RATE-10',
    level: 'DIALECT',
    title:
      'DIALECT count in fixed 60-second windows: Retry-After is at most 60 and the call is still refused shortly before it',
    section: 'C2',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'rate limits | fixed 60-second windows per key and class (read, write, token); Retry-After is whole seconds until the window resets',
    },
  },
  {
    id: 'RATE-11',
    level: 'MUST',
    title:
      'MUST ask no wait beyond the minute the limits count: Retry-After of at most 60 seconds on every 429',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
        'POST /oauth/token | 20 requests per minute per key',
        'Over any rate limit | 429 rate_limited with Retry-After in seconds',
      ],
    },
  },
  {
    id: 'RATE-12',
    level: 'MUST',
    title:
      'MUST count reads and writes apart: a key that used up either may still use all of the other that minute',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
      ],
    },
  },
  {
    id: 'RATE-13',
    level: 'MUST',
    title:
      'MUST count every GET endpoint as a read: after 300 reads spread over all of them, each one is refused',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock', 'shipping'],
    source: { doc: 'api', section: '8', quote: 'Reads (GET) | 300 requests per minute per key' },
  },
  {
    id: 'RATE-14',
    level: 'MUST',
    title:
      'MUST count every POST, PATCH and DELETE endpoint as a write: after 60 writes spread over them, each is refused',
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '8',
      quote: 'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
    },
  },
  {
    id: 'RATE-15',
    level: 'MUST',
    title:
      "MUST count per key, not per token: 60 writes spread over three of a key's tokens use up all three",
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
      ],
    },
  },
  {
    id: 'RATE-16',
    level: 'MUST',
    title:
      "MUST give a key its whole minute's budget again once a minute has passed since it was used up",
    section: '8',
    provokes429: true,
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Reads (GET) | 300 requests per minute per key',
        'Writes (POST, PATCH, DELETE) | 60 requests per minute per key',
        'POST /oauth/token | 20 requests per minute per key',
      ],
    },
  },
]);
