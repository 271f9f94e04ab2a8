import type { RuleInput } from '../schema.js';

/** Reads: API document sections 2 and 4; shapes and paths the document does not show come from the contract (C2). */
export const rules: RuleInput[] = [
  {
    id: 'READ-01',
    level: 'MUST',
    title: 'MUST answer GET /account with the partner account, including an object limits',
    section: '2',
  },
  {
    id: 'READ-02',
    level: 'MUST',
    title:
      "MUST show the account's own maximum order value and maximum orders per day under limits",
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'READ-03',
    level: 'MUST',
    title: "MUST show the key's scopes on GET /account",
    section: '2',
    needs: ['keys'],
  },
  {
    id: 'READ-04',
    level: 'MUST',
    title: 'MUST show on GET /account whether the key is live',
    section: '2',
  },
  {
    id: 'READ-05',
    level: 'MUST',
    title: "MUST show the account's billing method on GET /account",
    section: '2',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'READ-06',
    level: 'DIALECT',
    title:
      'DIALECT answer GET /account in the reference shape (id, name, livemode, billing_method, limits, scopes)',
    section: 'C2',
  },
  {
    id: 'READ-07',
    level: 'MUST',
    title: 'MUST let a catalog:read token read the catalog',
    section: '4',
  },
  {
    id: 'READ-08',
    level: 'DIALECT',
    title:
      "DIALECT list the account's products at /catalog/products in the reference product shape",
    section: 'C2',
  },
  {
    id: 'READ-09',
    level: 'DIALECT',
    title: 'DIALECT read one product at /catalog/products/{sku}, 404 not_found for an unknown SKU',
    section: 'C2',
  },
  {
    id: 'READ-10',
    level: 'MUST',
    title: 'MUST create a quote with POST /quotes and read it back with GET /quotes/{id}',
    section: '4',
  },
  {
    id: 'READ-11',
    level: 'DIALECT',
    title:
      'DIALECT answer a new quote with 201 in the reference quote shape, total = subtotal + shipping',
    section: 'C2',
  },
  {
    id: 'READ-12',
    level: 'MUST',
    title: "MUST list the account's orders with GET /orders",
    section: '4',
  },
  {
    id: 'READ-13',
    level: 'DIALECT',
    title:
      'DIALECT page order lists with limit, starting_after and has_more, each order exactly once',
    section: 'C2',
  },
  {
    id: 'READ-14',
    level: 'DIALECT',
    title: 'DIALECT refuse a list limit outside 1..100 with 422 validation_failed',
    section: 'C2',
  },
  {
    id: 'READ-15',
    level: 'MUST',
    title: 'MUST read an order with GET /orders/{id}',
    section: '4',
  },
  {
    id: 'READ-16',
    level: 'MUST',
    title: 'MUST read the shipments of an order',
    section: '4',
  },
  {
    id: 'READ-17',
    level: 'DIALECT',
    title:
      'DIALECT list no shipment before shipping and one after, with the order in status shipped',
    section: 'C2',
    needs: ['accounts', 'keys', 'shipping'],
  },
  {
    id: 'READ-18',
    level: 'DIALECT',
    title: 'DIALECT answer the invoice of an order not yet shipped with 404 not_found',
    section: 'C2',
  },
  {
    id: 'READ-19',
    level: 'MUST',
    title: 'MUST read the invoice of a shipped order',
    section: '4',
    needs: ['accounts', 'keys', 'shipping'],
  },
  {
    id: 'READ-20',
    level: 'MUST',
    title: 'MUST let a webhooks:manage token read events under /events',
    section: '6',
  },
  {
    id: 'READ-21',
    level: 'DIALECT',
    title: 'DIALECT record an order.created event for a placed order, readable at /events/{id}',
    section: 'C2',
  },
  {
    id: 'READ-22',
    level: 'DIALECT',
    title: 'DIALECT record an order.cancelled event for a cancelled order',
    section: 'C2',
  },
];
