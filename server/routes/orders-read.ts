import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { type Principal, principalOf } from '../auth/principal.js';
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

/**
 * The lookups of the order reads and of cancel (server/behaviour.ts part
 * `orderReads`). Each sees only the caller's account and mode (§7);
 * `correctOrderReads` is the reference's.
 */
export interface OrderReadBehaviour {
  /** The order with this id, if the caller may see it. */
  lookupOrder(principal: Principal, id: string): Promise<Order | undefined>;
  /** What an id the caller may not see is answered with. */
  notFound(): ApiProblem;
  /** The external_id a by-external-id request asks for: the decoded path parameter. */
  externalIdOf(request: FastifyRequest<{ Params: { external_id: string } }>): string;
  /** The order with this external_id, if the caller may see it. */
  lookupByExternalId(principal: Principal, externalId: string): Promise<Order | undefined>;
  /** Up to `limit` orders before `before`, newest first (§4 pagination). */
  listOrders(principal: Principal, before: number, limit: number): Promise<Order[]>;
  /** The order's invoice, once issued (contract §2). */
  invoiceOf(orderId: string): ReturnType<AppContext['store']['fulfilment']['invoice']>;
}

export function correctOrderReads(ctx: AppContext): OrderReadBehaviour {
  const { orders, fulfilment } = ctx.store;
  return {
    lookupOrder: ({ account, mode }, id) => orders.get(account.id, mode, id),
    notFound: orderNotFound,
    externalIdOf: (request) => request.params.external_id,
    lookupByExternalId: ({ account, mode }, externalId) =>
      orders.getByExternalId(account.id, mode, externalId),
    listOrders: ({ account, mode }, before, limit) => orders.page(account.id, mode, before, limit),
    invoiceOf: (orderId) => fulfilment.invoice(orderId),
  };
}

export async function findOrder(
  reads: OrderReadBehaviour,
  request: FastifyRequest,
  id: string,
): Promise<Order> {
  const order = await reads.lookupOrder(principalOf(request), id);
  if (!order) throw reads.notFound();
  return order;
}

/**
 * §4 reads (scope orders:read): `GET /orders`, `GET /orders/{id}`,
 * `GET /orders/by-external-id/{external_id}`, and contract §2's
 * `GET /orders/{id}/shipments` and `GET /orders/{id}/invoice` (404 until one exists).
 */
export function orderReadRoutes(ctx: AppContext, gate: TokenGate, reads: OrderReadBehaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = gate('readOrders');

    app.get('/orders', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      const principal = principalOf(request);
      const { account, mode } = principal;
      await readFaultPoint(ctx, request, account.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const cursor = await ctx.store.orders.get(account.id, mode, startingAfter);
        if (!cursor) throw unknownCursor();
        before = cursor.seq;
      }
      const rows = await reads.listOrders(principal, before, limit + 1);
      return page(rows, limit, orderView);
    });

    app.get<{ Params: { external_id: string } }>(
      '/orders/by-external-id/:external_id',
      { onRequest },
      async (request) => {
        refuseQuery(request);
        const principal = principalOf(request);
        await readFaultPoint(ctx, request, principal.account.id);
        const order = await reads.lookupByExternalId(principal, reads.externalIdOf(request));
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
      await readFaultPoint(ctx, request, principalOf(request).account.id);
      return orderView(await findOrder(reads, request, request.params.id));
    });

    app.get<WithId>('/orders/:id/shipments', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      await readFaultPoint(ctx, request, principalOf(request).account.id);
      const order = await findOrder(reads, request, request.params.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const seq = await ctx.store.fulfilment.shipmentSeq(order.id, startingAfter);
        if (seq === undefined) throw unknownCursor();
        before = seq;
      }
      const listed = page(
        await ctx.store.fulfilment.shipments(order.id, before, limit + 1),
        limit,
        shipmentView,
      );
      return listed;
    });

    app.get<WithId>('/orders/:id/invoice', { onRequest }, async (request) => {
      refuseQuery(request);
      await readFaultPoint(ctx, request, principalOf(request).account.id);
      const order = await findOrder(reads, request, request.params.id);
      const invoice = await reads.invoiceOf(order.id);
      if (!invoice)
        throw new ApiProblem(
          'not_found',
          'This order has no invoice yet; it is issued when the order ships.',
        );
      return invoiceView(invoice);
    });
  };
}
