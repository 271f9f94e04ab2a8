import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireToken } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import type { Order } from '../domain/order.js';
import { readFaultPoint } from '../faults/fault-point.js';
import { FROM_START, page, parseListQuery, refuseQuery, unknownCursor } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { invoiceView, shipmentView } from '../views/fulfilment.js';
import { orderView } from '../views/order.js';

type WithId = { Params: { id: string } };

/** §7 `not_found`: no such object in the account, or it belongs to the other mode. */
export function orderNotFound(): ApiProblem {
  return new ApiProblem('not_found', 'No order with this id in this account and mode.');
}

export function findOrder(ctx: AppContext, request: FastifyRequest, id: string): Order {
  const { account, mode } = principalOf(request);
  const order = ctx.store.orders.get(account.id, mode, id);
  if (!order) throw orderNotFound();
  return order;
}

/**
 * §4 reads (scope orders:read): `GET /orders`, `GET /orders/{id}`,
 * `GET /orders/by-external-id/{external_id}`, and contract §2's
 * `GET /orders/{id}/shipments` and `GET /orders/{id}/invoice` (404 until one exists).
 */
export function orderReadRoutes(ctx: AppContext) {
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
      return page(rows, limit, orderView);
    });

    app.get<{ Params: { external_id: string } }>(
      '/orders/by-external-id/:external_id',
      { onRequest },
      async (request) => {
        refuseQuery(request);
        const { account, mode } = principalOf(request);
        readFaultPoint(ctx, request, account.id);
        const order = ctx.store.orders.getByExternalId(
          account.id,
          mode,
          request.params.external_id,
        );
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
      readFaultPoint(ctx, request, principalOf(request).account.id);
      return orderView(findOrder(ctx, request, request.params.id));
    });

    app.get<WithId>('/orders/:id/shipments', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      readFaultPoint(ctx, request, principalOf(request).account.id);
      const order = findOrder(ctx, request, request.params.id);
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
      const order = findOrder(ctx, request, request.params.id);
      const invoice = ctx.store.fulfilment.invoice(order.id);
      if (!invoice)
        throw new ApiProblem(
          'not_found',
          'This order has no invoice yet; it is issued when the order ships.',
        );
      return invoiceView(invoice);
    });
  };
}
