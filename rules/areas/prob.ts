import { areaRules } from '../schema.js';

/**
 * Probation of a new live key: API document sections 3 ("live key, new"), 7
 * (`limit_exceeded`) and 8. Placing live orders needs the user's consent
 * (`live_orders`); against the bundled reference the engine grants it.
 */
export const rules = areaRules([
  {
    id: 'PROB-01',
    level: 'MUST',
    title:
      'MUST let a new live key place 3 orders in its first 24 hours and refuse a 4th with 422 limit_exceeded',
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
    id: 'PROB-02',
    level: 'MUST',
    title:
      'MUST let a new live key order up to $500.00 in its first 24 hours and refuse beyond with limit_exceeded',
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
    id: 'PROB-03',
    level: 'MUST',
    title: "MUST lift probation once the key's first 24 hours are over, and not before",
    section: '3',
    needs: ['accounts', 'keys', 'clock', 'live_orders'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'live key, new | Time | First 24 hours | probation',
    },
  },
  {
    id: 'PROB-04',
    level: 'MUST',
    title: 'MUST lift probation when the operator ends it early',
    section: '3',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'Probation can be ended early on request to the operator.',
    },
  },
  {
    id: 'PROB-05',
    level: 'MUST',
    title: 'MUST count cancelled orders toward probation',
    section: '3',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'live key, new | Time | First 24 hours | probation | At most 3 orders or $500.00 in that time. Beyond that, limit_exceeded.',
      reading: 'Cancelled orders still count toward orders per day and probation.',
    },
  },
  {
    id: 'PROB-06',
    level: 'MUST',
    title: 'MUST count probation per live key: a second new live key has its own allowance',
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
    id: 'PROB-07',
    level: 'MUST',
    title:
      'MUST not hold test keys to probation: a new test key places a 4th order in its first day',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'live key, new | Time | First 24 hours | probation',
    },
  },
]);
