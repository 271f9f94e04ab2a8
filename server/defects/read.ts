import { API_BASE } from '../config/api.js';
import { defaultSettings } from '../domain/account-settings.js';
import { money } from '../domain/money.js';
import { SCOPES } from '../domain/scopes.js';
import { orderNotFound } from '../routes/orders-read.js';
import type { Answer, Json } from './defect.js';
import { defectsOf, successOf } from './defect.js';

/** A bend of the `GET /account` view (§2 account). */
function accountBend(bend: (view: Json) => Json) {
  return () => ({
    answer: (answer: Answer) => {
      if (successOf(answer, 'GET', '/account')) answer.body = bend(answer.body);
    },
  });
}

/** §2 account, §4 reads. */
export const READ_DEFECTS = defectsOf('READ', [
  {
    name: 'account-default-limits',
    breaks: 'GET /account shows the default limits, not the account\u2019s',
    replaces: accountBend((view) => {
      const defaults = defaultSettings().limits;
      return {
        ...view,
        limits: {
          max_order_value: money(defaults.max_order_value),
          max_orders_per_day: defaults.max_orders_per_day,
        },
      };
    }),
  },
  {
    name: 'account-all-scopes',
    breaks: 'GET /account shows all four scopes whatever the key holds',
    replaces: accountBend((view) => ({ ...view, scopes: [...SCOPES] })),
  },
  {
    name: 'account-shows-token-scopes',
    breaks: "GET /account shows the token's scopes, not the key's",
    replaces: () => ({
      answer: (answer) => {
        const { principal } = answer.request;
        if (principal && successOf(answer, 'GET', '/account'))
          answer.body = { ...answer.body, scopes: [...principal.scopes] };
      },
    }),
  },
  {
    name: 'account-livemode-false',
    breaks: 'GET /account says livemode false for live keys',
    replaces: accountBend((view) => ({ ...view, livemode: false })),
  },
  {
    name: 'account-billing-invoice',
    breaks: 'GET /account says billing_method invoice for card accounts',
    replaces: accountBend((view) => ({ ...view, billing_method: 'invoice' })),
  },
  {
    name: 'quote-not-readable',
    breaks: 'GET /quotes/{id} answers 404 for the quote just made',
    replaces: () => ({ quotes: { lookupQuote: () => () => Promise.resolve(undefined) } }),
  },
  {
    name: 'order-list-omits-newest',
    breaks: 'GET /orders leaves out the newest order',
    replaces: () => ({
      orderReads: {
        listOrders: (list) => async (principal, before, limit) =>
          (await list(principal, before, limit)).slice(1),
      },
    }),
  },
  {
    name: 'invoice-never-issued',
    breaks: 'a shipped order has no invoice',
    replaces: () => ({ orderReads: { invoiceOf: () => () => Promise.resolve(undefined) } }),
  },
  {
    name: 'account-limits-flat',
    breaks: 'GET /account gives the limits as top-level fields, with no object limits',
    replaces: accountBend(({ limits, ...rest }) => ({ ...rest, ...(limits as Json) })),
  },
  {
    name: 'catalog-needs-orders-read',
    breaks: 'GET /catalog/… needs orders:read instead of catalog:read',
    replaces: () => ({ scopes: { catalog: () => 'orders:read' } }),
  },
  {
    name: 'order-read-without-external-id',
    breaks: 'GET /orders/{id} leaves external_id out of the order',
    replaces: () => ({
      answer: (answer) => {
        if (!successOf(answer, 'GET', '/orders/:id')) return;
        const { external_id: _left, ...rest } = answer.body;
        answer.body = rest;
      },
    }),
  },
  {
    name: 'shipments-not-listed',
    breaks: 'GET /orders/{id}/shipments answers {shipments: […]}, no list under data',
    replaces: () => ({
      answer: (answer) => {
        if (successOf(answer, 'GET', '/orders/:id/shipments'))
          answer.body = { shipments: answer.body.data, has_more: answer.body.has_more };
      },
    }),
  },
  {
    name: 'shipments-not-found',
    breaks: 'GET /orders/{id}/shipments answers 404 not_found for an order the caller can read',
    replaces: () => ({
      // As a route that looks the order up in the wrong place would; before the handler, so the
      // problem is the server's own (its error handler renders it).
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request) => {
          if (
            request.method === 'GET' &&
            request.routeOptions.url === `${API_BASE}/orders/:id/shipments`
          )
            throw orderNotFound();
        });
      },
    }),
  },
  {
    name: 'events-need-orders-read',
    breaks: 'GET /events needs orders:read instead of webhooks:manage',
    replaces: () => ({ scopes: { events: () => 'orders:read' } }),
  },
  {
    name: 'shipments-always-empty',
    breaks: 'GET /orders/{id}/shipments answers an empty list, shipped or not',
    replaces: () => ({
      answer: (answer) => {
        if (successOf(answer, 'GET', '/orders/:id/shipments'))
          answer.body = { ...answer.body, data: [], has_more: false };
      },
    }),
  },
  {
    name: 'shipments-of-another-order',
    breaks:
      "an order with no shipment lists the last shipment its account's key read (of another order)",
    replaces: () => {
      // Per credential: the last non-empty shipments answer, shown again for an empty one.
      const last = new Map<string, Json>();
      return {
        answer: (answer) => {
          if (!successOf(answer, 'GET', '/orders/:id/shipments')) return;
          const who = String(answer.request.headers.authorization ?? '');
          const data = answer.body.data;
          if (Array.isArray(data) && data.length > 0) last.set(who, answer.body);
          else if (last.has(who)) answer.body = { ...(last.get(who) as Json) };
        },
      };
    },
  },
]);
