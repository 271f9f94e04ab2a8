import { areaRules } from '../schema.js';

/**
 * Concurrent requests: every statement of the API document that requests
 * arriving together could break (a limit, a uniqueness, a single outcome),
 * raced. Each check sends its racing requests held at their last byte and
 * released together on warm connections of their own (lib/client/last-byte.ts,
 * `CheckContext.race`), in several rounds (suites/support/race-rounds.ts),
 * so that a busy machine running the suite cannot hide a race the target loses.
 * Maximum order value is per order, so no race can break it; identical
 * orders racing with one Idempotency-Key are IDEM-10.
 */
export const rules = areaRules([
  {
    id: 'RACE-01',
    level: 'MUST',
    title:
      'MUST place one order for orders racing with one external_id and other keys, and answer the rest 409 duplicate_external_id',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'Body: must contain external_id, unique per account.',
        'A second order with an external_id already used in the account gives 409 duplicate_external_id.',
      ],
    },
  },
  {
    id: 'RACE-02',
    level: 'MUST',
    title:
      'MUST let exactly one of racing cancels of one order succeed and answer the rest 409 not_cancellable',
    section: '3',
    source: {
      doc: 'api',
      section: '3',
      quote: [
        'POST /orders/{id}/cancel | Within the 24-hour window, production not started, order not already cancelled | Order is cancelled.',
        'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable.',
      ],
    },
  },
  {
    id: 'RACE-03',
    level: 'MUST',
    title:
      'MUST keep a mode at five webhook endpoints when creations race for the last places, the rest 422 limit_exceeded',
    section: '6',
    source: {
      doc: 'api',
      section: '6',
      quote: 'At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded.',
    },
  },
  {
    id: 'RACE-04',
    level: 'MUST',
    title:
      "MUST keep the day's orders within the account's maximum when orders race for the last places",
    section: '8',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote:
        'Maximum orders per day | Per account, shown in GET /account under limits. Over it: 422 validation_failed.',
    },
  },
  {
    id: 'RACE-05',
    level: 'MUST',
    title:
      "MUST keep a new live key's racing orders within probation's 3 orders and $500.00, the rest limit_exceeded",
    section: '3',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'live key, new | Time | First 24 hours | probation | At most 3 orders or $500.00 in that time. Beyond that, limit_exceeded.',
    },
  },
  {
    id: 'RACE-06',
    level: 'MUST',
    title: 'MUST keep an account at ten active keys when key creations race for the last places',
    section: '3',
    needs: ['accounts', 'keys'],
    source: { doc: 'api', section: '3', quote: 'Up to 10 keys may be active at once.' },
  },
  {
    id: 'RACE-07',
    level: 'MUST',
    title:
      'MUST accept at most 20 token requests of a key in a minute when they race for the last places',
    section: '5',
    provokes429: true,
    needs: ['accounts', 'keys'],
    source: { doc: 'api', section: '5', quote: 'At most 20 token requests a minute per key.' },
  },
  {
    id: 'RACE-08',
    level: 'MUST',
    title: 'MUST accept at most 60 writes of a key in a minute when they race for the last places',
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
    id: 'RACE-09',
    level: 'MUST',
    title: 'MUST accept at most 300 reads of a key in a minute when they race for the last places',
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
    id: 'RACE-10',
    level: 'MUST',
    title:
      'MUST stop every token of the old Secret Key at a roll, those requested while the roll was under way too',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'active | Roll (in the developer portal) | Test key | active, with a new Secret Key | The old Secret Key and every token made with it stop working at once.',
    },
  },
  {
    id: 'RACE-11',
    level: 'MUST',
    title:
      'MUST stop every token of a revoked key, those requested while the revoke was under way too',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'active | Revoke (in the developer portal) | Any key | revoked (permanent) | All its tokens stop working. Requests with them get invalid_token.',
    },
  },
]);
