import { areaRules } from '../schema.js';

/** Modes and ownership: API document sections 1 (two modes), 2 and 7 (`not_found`). */
export const rules = areaRules([
  {
    id: 'MODE-01',
    level: 'MUST',
    title:
      'MUST hide live orders from test keys: 404 not_found on read, by external id and cancel; absent from lists',
    section: '1',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '1',
      quote:
        'Objects belong to exactly one mode. Test keys see only test objects and live keys see only live objects.',
    },
  },
  {
    id: 'MODE-02',
    level: 'MUST',
    title:
      'MUST hide test orders and quotes from live keys: 404 not_found on read and cancel; absent from lists',
    section: '1',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '1',
      quote:
        'Objects belong to exactly one mode. Test keys see only test objects and live keys see only live objects.',
    },
  },
  {
    id: 'MODE-03',
    level: 'MUST',
    title:
      "MUST answer another account's orders and quotes with 404 not_found on read and cancel, and keep them out of lists",
    section: '7',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
  {
    id: 'MODE-04',
    level: 'SHOULD',
    title: "SHOULD answer another account's objects with 404 not_found, never 403",
    section: '7',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
  {
    id: 'MODE-05',
    level: 'MUST',
    title: 'MUST answer 404 not_found for order and quote ids that do not exist',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
  {
    id: 'MODE-06',
    level: 'DIALECT',
    title: 'DIALECT accept an external_id already used in the other mode',
    section: 'C2',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'external_id is unique per account within a mode (objects belong to one mode); reuse in the other mode is DIALECT.',
    },
  },
  {
    id: 'MODE-07',
    level: 'MUST',
    title:
      "MUST hide the other mode's shipments, invoices, events, webhook endpoints and quotes: 404 not_found, never listed or deleted",
    section: '1',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '1',
      quote:
        'Objects belong to exactly one mode. Test keys see only test objects and live keys see only live objects.',
    },
  },
  {
    id: 'MODE-08',
    level: 'MUST',
    title:
      "MUST answer another account's shipments, invoices, events and webhook endpoints with 404 not_found; never list or delete them",
    section: '7',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
  {
    id: 'MODE-09',
    level: 'MUST',
    title:
      'MUST answer 404 not_found for shipments, invoices, events and webhook endpoints of ids that do not exist',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
]);
