import { areaRules } from '../schema.js';

/** Scopes (API document sections 4 and 5, the scope tables; RFC 6750). */
export const rules = areaRules([
  {
    id: 'SCOPE-01',
    level: 'MUST',
    title:
      'MUST serve each endpoint of the scope table exactly to tokens that hold its scope (generated scope sets)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: [
        'catalog:read | GET /catalog/…, POST /quotes, GET /quotes/{id}',
        'orders:read | GET /orders, GET /orders/{id}, by-external-id, shipments, invoice',
        'orders:write | POST /orders, POST /orders/{id}/cancel',
        'webhooks:manage | /webhook-endpoints and /events',
      ],
    },
  },
  {
    id: 'SCOPE-02',
    level: 'MUST',
    title:
      'MUST refuse a call lacking its scope with 403 insufficient_scope and required_scope naming it',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'A call needing a scope the token lacks gets 403 insufficient_scope, with required_scope.',
    },
  },
  {
    id: 'SCOPE-03',
    level: 'MUST',
    title: 'MUST serve GET /account to any valid token, whatever scope it carries',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | /account | any valid token | Read the partner account.',
    },
  },
  {
    id: 'SCOPE-04',
    level: 'SHOULD',
    title:
      'SHOULD challenge with WWW-Authenticate: Bearer error="insufficient_scope" and scope="…" on 403 (RFC 6750 §3.1)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'A call needing a scope the token lacks gets 403 insufficient_scope, with required_scope.',
      rfc: 'RFC 6750 §3.1',
    },
  },
]);
