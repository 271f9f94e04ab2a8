import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireToken } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import type { Order } from '../domain/order.js';
import { readFaultPoint } from '../faults/fault-point.js';
import { FROM_START, page, parseListQuery, refuseQuery, unknownCursor } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { orderNotFound } from '../routes/orders-read.js';
import { invoiceView, shipmentView } from '../views/fulfilment.js';
import { orderView } from '../views/order.js';
import { orderInAnyAccount } from './lookups.js';
import { placedInLastDay } from './order-reads.js';

type WithId = { Params: { id: string } };

/** The order lookup of a defective server (`test-key-sees-live-orders`, `unknown-id-as-422`). */
export function defectiveFindOrder(ctx: AppContext, request: FastifyRequest, id: string): Order {
  const { account, mode } = principalOf(request);
  const order =
    ctx.store.orders.get(account.id, mode, id) ??
    (mode === 'test' && ctx.hasDefect('test-key-sees-live-orders')
      ? ctx.store.orders.get(account.id, 'live', id)
      : undefined);
  if (!order) {
    throw ctx.hasDefect('unknown-id-as-422')
      ? new ApiProblem('validation_failed', 'The order id is not valid.', {
          errors: [{ detail: 'No order has this id.', pointer: 'id' }],
        })
      : orderNotFound();
  }
  return order;
}

/**
 * The order reads of a defective server (routes/orders-read.ts with the read
 * defects switched in), registered instead of the correct ones only when
 * defects are on. §4 reads (scope orders:read): `GET /orders`, `GET /orders/{id}`,
 * `GET /orders/by-external-id/{external_id}`, and contract §2's
 * `GET /orders/{id}/shipments` and `GET /orders/{id}/invoice` (404 until one exists).
 */
export function defectiveOrderReadRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = requireToken(ctx, 'orders:read');

    app.get('/orders', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      const { account, mode } = principalOf(request);
      readFaultPoint(ctx, request, account.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const cursor = ctx.store.orders.get(account.id, mode, startingAfter);
        if (!cursor) throw unknownCursor();
        before = cursor.seq;
      }
      const rows = ctx.store.orders.page(account.id, mode, before, limit + 1);
      return page(
        ctx.hasDefect('order-list-omits-newest') ? rows.slice(1) : rows,
        limit,
        orderView,
      );
    });

    app.get<{ Params: { external_id: string } }>(
      '/orders/by-external-id/:external_id',
      { onRequest },
      async (request) => {
        refuseQuery(request);
        const { account, mode } = principalOf(request);
        readFaultPoint(ctx, request, account.id);
        const externalId = ctx.hasDefect('by-external-id-undecoded')
          ? (request.url.split('?')[0]?.split('/').pop() ?? '')
          : request.params.external_id;
        const found =
          ctx.store.orders.getByExternalId(account.id, mode, externalId) ??
          (mode === 'test' && ctx.hasDefect('test-key-sees-live-orders')
            ? ctx.store.orders.getByExternalId(account.id, 'live', externalId)
            : undefined);
        const order =
          found && ctx.hasDefect('external-id-lookup-forgets-after-day')
            ? placedInLastDay(found, principalOf(request).now)
            : found;
        if (!order) {
          throw new ApiProblem(
            'not_found',
            'No order with this external_id in this account and mode.',
          );
        }
        return orderView(order);
      },
    );

    app.get<WithId>('/orders/:id', { onRequest }, async (request) => {
      refuseQuery(request);
      const { account, mode } = principalOf(request);
      readFaultPoint(ctx, request, account.id);
      const elsewhere = ctx.hasDefect('other-account-orders-visible')
        ? orderInAnyAccount(ctx.store, mode, request.params.id)
        : undefined;
      const view = orderView(elsewhere ?? defectiveFindOrder(ctx, request, request.params.id));
      return view;
    });

    app.get<WithId>('/orders/:id/shipments', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      readFaultPoint(ctx, request, principalOf(request).account.id);
      const order = defectiveFindOrder(ctx, request, request.params.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const seq = ctx.store.fulfilment.shipmentSeq(order.id, startingAfter);
        if (seq === undefined) throw unknownCursor();
        before = seq;
      }
      const listed = page(
        ctx.store.fulfilment.shipments(order.id, before, limit + 1),
        limit,
        shipmentView,
      );
      return listed;
    });

    app.get<WithId>('/orders/:id/invoice', { onRequest }, async (request) => {
      refuseQuery(request);
      readFaultPoint(ctx, request, principalOf(request).account.id);
      const order = defectiveFindOrder(ctx, request, request.params.id);
      const invoice = ctx.hasDefect('invoice-never-issued')
        ? undefined
        : ctx.store.fulfilment.invoice(order.id);
      if (!invoice)
        throw new ApiProblem(
          'not_found',
          'This order has no invoice yet; it is issued when the order ships.',
        );
      return invoiceView(invoice);
    });
  };
}
