import { areaRules } from '../schema.js';

/** Reads: API document sections 2 and 4; shapes and paths the document does not show come from the contract (C2). */
export const rules = areaRules([
  {
    id: 'READ-01',
    level: 'MUST',
    title: 'MUST answer GET /account with the partner account, including an object limits',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote:
        "Read with GET /account. Shows the partner account, whether the key is live, the billing method, the order limits (object limits) and the key's scopes.",
    },
  },
  {
    id: 'READ-02',
    level: 'MUST',
    title:
      "MUST show the account's own maximum order value and maximum orders per day under limits",
    section: '8',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '8',
      quote: [
        'Maximum order value | Per account, shown in GET /account under limits.',
        'Maximum orders per day | Per account, shown in GET /account under limits.',
        'The numeric values of the per-account limits are set per account and are read from the account.',
      ],
    },
  },
  {
    id: 'READ-03',
    level: 'MUST',
    title: "MUST show the key's scopes on GET /account",
    section: '2',
    needs: ['keys'],
    source: {
      doc: 'api',
      section: '2',
      quote:
        "Read with GET /account. Shows the partner account, whether the key is live, the billing method, the order limits (object limits) and the key's scopes.",
    },
  },
  {
    id: 'READ-04',
    level: 'MUST',
    title: 'MUST show on GET /account whether the key is live',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote:
        "Read with GET /account. Shows the partner account, whether the key is live, the billing method, the order limits (object limits) and the key's scopes.",
    },
  },
  {
    id: 'READ-05',
    level: 'MUST',
    title: "MUST show the account's billing method on GET /account",
    section: '2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '2',
      quote:
        "Read with GET /account. Shows the partner account, whether the key is live, the billing method, the order limits (object limits) and the key's scopes.",
    },
  },
  {
    id: 'READ-06',
    level: 'DIALECT',
    title:
      'DIALECT answer GET /account in the reference shape (id, name, livemode, billing_method, limits, scopes)',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'account | GET /account needs any valid token; {id, name, livemode, billing_method, limits: {max_order_value, max_orders_per_day}, scopes}',
    },
  },
  {
    id: 'READ-07',
    level: 'MUST',
    title: 'MUST let a catalog:read token read the catalog',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | /catalog/… | catalog:read | Read the catalog.',
    },
  },
  {
    id: 'READ-08',
    level: 'DIALECT',
    title:
      "DIALECT list the account's products at /catalog/products in the reference product shape",
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'catalog | GET /catalog/products (list), GET /catalog/products/{sku}; a product is {sku, name, unit_price, min_quantity, ships_by_freight}',
    },
  },
  {
    id: 'READ-09',
    level: 'DIALECT',
    title: 'DIALECT read one product at /catalog/products/{sku}, 404 not_found for an unknown SKU',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'catalog | GET /catalog/products (list), GET /catalog/products/{sku}; a product is {sku, name, unit_price, min_quantity, ships_by_freight}',
    },
  },
  {
    id: 'READ-10',
    level: 'MUST',
    title: 'MUST create a quote with POST /quotes and read it back with GET /quotes/{id}',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'POST | /quotes | catalog:read | Create a quote.',
        'GET | /quotes/{id} | catalog:read | Read a quote.',
      ],
    },
  },
  {
    id: 'READ-11',
    level: 'DIALECT',
    title:
      'DIALECT answer a new quote with 201 in the reference quote shape, total = subtotal + shipping',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'quote | POST /quotes body {items, shipping_address} answers 201 {id, items, subtotal, shipping, total, expires_at}; GET /quotes/{id}',
    },
  },
  {
    id: 'READ-12',
    level: 'MUST',
    title: "MUST list the account's orders with GET /orders",
    section: '4',
    source: { doc: 'api', section: '4', quote: 'GET | /orders | orders:read | List orders.' },
  },
  {
    id: 'READ-13',
    level: 'DIALECT',
    title:
      'DIALECT page order lists with limit, starting_after and has_more, each order exactly once',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Lists are {"data": [...], "has_more": bool} with query limit (1..100, default 20) and starting_after (an id).',
    },
  },
  {
    id: 'READ-14',
    level: 'DIALECT',
    title: 'DIALECT refuse a list limit outside 1..100 with 422 validation_failed',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Lists are {"data": [...], "has_more": bool} with query limit (1..100, default 20) and starting_after (an id).',
    },
  },
  {
    id: 'READ-15',
    level: 'MUST',
    title: 'MUST read an order with GET /orders/{id}',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | /orders/{id} | orders:read | Read an order.',
    },
  },
  {
    id: 'READ-16',
    level: 'MUST',
    title: 'MUST read the shipments of an order',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | shipments of an order | orders:read | Read shipments.',
    },
  },
  {
    id: 'READ-17',
    level: 'DIALECT',
    title:
      'DIALECT list no shipment before shipping and one after, with the order in status shipped',
    section: 'C2',
    needs: ['accounts', 'keys', 'shipping'],
    source: {
      doc: 'contract',
      section: '2',
      quote: 'shipments | GET /orders/{id}/shipments (list)',
    },
  },
  {
    id: 'READ-18',
    level: 'DIALECT',
    title: 'DIALECT answer the invoice of an order not yet shipped with 404 not_found',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote: 'invoice | GET /orders/{id}/invoice; 404 not_found until one exists',
    },
  },
  {
    id: 'READ-19',
    level: 'MUST',
    title: 'MUST read the invoice of a shipped order',
    section: '4',
    needs: ['accounts', 'keys', 'shipping'],
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | invoice of an order | orders:read | Read the invoice.',
    },
  },
  {
    id: 'READ-20',
    level: 'MUST',
    title: 'MUST let a webhooks:manage token read events under /events',
    section: '6',
    source: {
      doc: 'api',
      section: '6',
      quote:
        'Events are read under /events. Webhook endpoints are managed under /webhook-endpoints. Both need the scope webhooks:manage.',
    },
  },
  {
    id: 'READ-21',
    level: 'DIALECT',
    title: 'DIALECT record an order.created event for a placed order, readable at /events/{id}',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'events | GET /events (list), GET /events/{id}; an event is {id, type, created_at, livemode, data: {object}}; types include order.created, order.cancelled',
    },
  },
  {
    id: 'READ-22',
    level: 'DIALECT',
    title: 'DIALECT record an order.cancelled event for a cancelled order',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'events | GET /events (list), GET /events/{id}; an event is {id, type, created_at, livemode, data: {object}}; types include order.created, order.cancelled',
    },
  },
  {
    id: 'READ-23',
    level: 'MUST',
    title: "MUST show a shipped order's shipment when its shipments are read",
    section: '4',
    needs: ['accounts', 'keys', 'shipping'],
    source: {
      doc: 'api',
      section: '4',
      quote: 'GET | shipments of an order | orders:read | Read shipments.',
    },
  },
  {
    id: 'READ-24',
    level: 'MUST',
    title: "MUST show an order's own shipments and invoice, never another order's",
    section: '2',
    needs: ['accounts', 'keys', 'shipping'],
    source: { doc: 'api', section: '2', quote: 'Shipment, invoice | Read per order.' },
  },
  {
    id: 'READ-25',
    level: 'DIALECT',
    title: 'DIALECT show 20 entries a page, and say more follow, when no page size is asked',
    section: 'C2',
    needs: ['accounts'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Lists are {"data": [...], "has_more": bool} with query limit (1..100, default 20) and starting_after (an id).',
    },
  },
]);
