import type { CheckContext, HttpMethod, Key, RequestSpec } from '../../lib/check/index.js';
import {
  HarnessError,
  linesOf,
  newIdempotencyKey,
  quoteBodyOf,
  requireId,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { requireServedSubresource } from '../support/order-subresource.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import type { Scope } from '../support/scopes.js';

/** Objects the endpoints of the scope table act on, made once with a token holding every scope. */
export interface ScopeFixtures {
  orderId: string;
  externalId: string;
  /** The body and Idempotency-Key of the order: sent again, `POST /orders` replays it (section 4). */
  orderBody: Record<string, unknown>;
  idempotencyKey: string;
  quoteId: string;
  quoteBody: Record<string, unknown>;
  sku: string;
}

/** One row of the scope table (section 5): an endpoint, the scope it needs, and a valid request to it. */
export interface ScopedEndpoint {
  name: string;
  scope: Scope;
  request: Omit<RequestSpec, 'auth'>;
}

/**
 * Places one order and makes one quote for the endpoints to act on. Every
 * request built from them is valid in every way but its scope: the only rule
 * a refusal can be about.
 */
export async function scopeFixtures(ctx: CheckContext, key: Key): Promise<ScopeFixtures> {
  const orderBody = await ctx.orderBody({ externalId: uniqueExternalId('ct-scope') });
  const idempotencyKey = newIdempotencyKey();
  const order = await ctx.postOrder(key, orderBody, { idempotencyKey });
  if (order.status >= 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not place the order the scope checks act on: HTTP ${order.status} (evidence #${order.exchange})`,
    );
  }
  const quoteBody = quoteBodyOf(ctx.dialect, orderBody);
  const quote = await ctx.api(key).post(ctx.path('quotes'), quoteBody);
  requireQuoteBodyTaken(ctx, quote, 'the quote the scope checks act on');
  const orderId = requireId(ctx.dialect, 'order', order.json, 'the order placed', order.exchange);
  if (quote.status >= 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not make the quote the scope checks act on: HTTP ${quote.status} (evidence #${quote.exchange})`,
    );
  }
  const quoteId = requireId(ctx.dialect, 'quote', quote.json, 'the quote made', quote.exchange);
  // Shipments and invoice have paths the document does not show: the table needs the profile's
  // to answer, or a 404 there would say nothing about scopes. The invoice exists once shipped.
  const client = ctx.api(key);
  const shipmentsPath = ctx.path('shipments', { id: orderId });
  const shipments = await client.get(shipmentsPath);
  const what = 'GET shipments of the order placed';
  await requireServedSubresource(ctx, key, shipmentsPath, shipments, 'shipments', what);
  if (ctx.has('shipping') && key.accountId !== undefined) {
    await ctx.control.ship(key.accountId, orderId);
    const invoicePath = ctx.path('invoice', { id: orderId });
    const invoice = await client.get(invoicePath);
    const shipped = 'GET invoice of the order placed and shipped';
    await requireServedSubresource(ctx, key, invoicePath, invoice, 'invoice', shipped);
  }
  const sku = linesOf(ctx.dialect.orderBody, orderBody)[0]?.sku ?? '';
  return {
    orderId,
    externalId: String(orderBody.external_id),
    orderBody,
    idempotencyKey,
    quoteId,
    quoteBody,
    sku,
  };
}

/**
 * The scope table of section 5 (and the endpoint table of section 4), with
 * the paths of the reference dialect where the document does not show them
 * (shipments, invoice, webhook endpoints and events: contract section 2).
 * Webhook endpoints are only listed, never made: five per mode is a limit of its own.
 */
export function scopedEndpoints(ctx: CheckContext, f: ScopeFixtures): ScopedEndpoint[] {
  const get = (
    name: string,
    scope: Scope,
    path: string,
    method: HttpMethod = 'GET',
  ): ScopedEndpoint => ({
    name,
    scope,
    request: { method, path },
  });
  const { operations } = ctx.dialect;
  return [
    get('GET /catalog/products', 'catalog:read', ctx.path('catalogProducts')),
    get('GET /catalog/products/{sku}', 'catalog:read', ctx.path('catalogProduct', { sku: f.sku })),
    {
      name: 'POST /quotes',
      scope: 'catalog:read',
      request: { method: 'POST', path: ctx.path('quotes'), json: f.quoteBody },
    },
    get('GET /quotes/{id}', 'catalog:read', ctx.path('quote', { id: f.quoteId })),
    get('GET /orders', 'orders:read', ctx.path('orders')),
    get('GET /orders/{id}', 'orders:read', ctx.path('order', { id: f.orderId })),
    get(
      'GET /orders/by-external-id/{external_id}',
      'orders:read',
      ctx.path('orderByExternalId', { external_id: f.externalId }),
    ),
    get('GET shipments of an order', 'orders:read', ctx.path('shipments', { id: f.orderId })),
    get('GET invoice of an order', 'orders:read', ctx.path('invoice', { id: f.orderId })),
    {
      name: 'POST /orders (a replay of the placed order)',
      scope: 'orders:write',
      request: {
        method: 'POST',
        path: ctx.path('orders'),
        json: f.orderBody,
        headers: { 'idempotency-key': f.idempotencyKey },
      },
    },
    {
      name: 'POST /orders/{id}/cancel',
      scope: 'orders:write',
      request: { method: 'POST', path: ctx.path('orderCancel', { id: f.orderId }) },
    },
    // Their methods are the dialect's: the document does not show them.
    get(
      'list webhook endpoints',
      'webhooks:manage',
      ctx.path('webhookEndpoints'),
      operations.webhookEndpointList.method,
    ),
    get('list events', 'webhooks:manage', ctx.path('events'), operations.eventList.method),
  ];
}
