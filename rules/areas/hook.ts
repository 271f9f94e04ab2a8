import { areaRules } from '../schema.js';

/** Webhook endpoints: API document sections 2, 4 and 6. */
export const rules = areaRules([
  {
    id: 'HOOK-01',
    level: 'MUST',
    title:
      'MUST accept five webhook endpoints in a mode and refuse a sixth with 422 limit_exceeded',
    section: '6',
    source: {
      doc: 'api',
      section: '6',
      quote: 'At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded.',
    },
  },
  {
    id: 'HOOK-02',
    level: 'MUST',
    title: 'MUST give the other mode its own five webhook endpoints',
    section: '6',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '6',
      quote: 'At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded.',
    },
  },
  {
    id: 'HOOK-03',
    level: 'MUST',
    title: 'MUST not count deleted webhook endpoints toward the five',
    section: '6',
    source: {
      doc: 'api',
      section: '6',
      quote: 'At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded.',
      reading: 'Deleted webhook endpoints do not count toward the five.',
    },
  },
  {
    id: 'HOOK-04',
    level: 'MUST',
    title:
      'MUST refuse /webhook-endpoints and /events without webhooks:manage with 403 insufficient_scope',
    section: '6',
    source: {
      doc: 'api',
      section: '6',
      quote:
        'Events are read under /events. Webhook endpoints are managed under /webhook-endpoints. Both need the scope webhooks:manage.',
    },
  },
  {
    id: 'HOOK-05',
    level: 'DIALECT',
    title:
      'DIALECT create endpoints with 201, list and read them, delete with 204 and then answer 404',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'webhook endpoints | POST /webhook-endpoints {url, events?} answers 201; GET /webhook-endpoints, GET/DELETE /webhook-endpoints/{id} (DELETE answers 204)',
    },
  },
  {
    id: 'HOOK-06',
    level: 'MUST',
    title:
      'MUST answer an unknown webhook endpoint id (read, delete) and an unknown event id with 404 not_found',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
]);
