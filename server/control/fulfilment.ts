import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { newId, randomBase62 } from '../domain/ids.js';
import type { Order } from '../domain/order.js';
import { ApiProblem } from '../problems/api-problem.js';
import { orderView } from '../views/order.js';
import { accountOr404 } from './request.js';

type WithOrder = { Params: { id: string; order_id: string } };

async function orderOr404(ctx: AppContext, accountId: string, orderId: string): Promise<Order> {
  const order = await ctx.store.orders.getInAnyMode(accountId, orderId);
  if (!order) throw new ApiProblem('not_found', 'No order with this id in this account.');
  return order;
}

/**
 * Contract §3 production and shipping: `start-production` makes a received
 * order `in_production` (so it can no longer be cancelled, §3); `ship` makes
 * it `shipped`, with one shipment and its invoice. Each emits an event.
 */
export function controlFulfilmentRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const { store } = ctx;

    app.post<WithOrder>(
      '/accounts/:id/orders/:order_id/start-production',
      async (request, reply) => {
        const account = await accountOr404(ctx, request.params.id);
        const now = ctx.now(account);
        await store.transaction(async () => {
          await store.lockAccount(account.id);
          const order = await orderOr404(ctx, account.id, request.params.order_id);
          if (order.status !== 'received') {
            throw new ApiProblem(
              'invalid_state',
              `The order is ${order.status}; only a received order can start production.`,
            );
          }
          const next = await store.orders.setStatus(order, 'in_production', now);
          await store.events.record(
            account.id,
            order.mode,
            'order.in_production',
            now,
            orderView(next),
          );
        });
        return reply.code(204).send();
      },
    );

    app.post<WithOrder>('/accounts/:id/orders/:order_id/ship', async (request, reply) => {
      const account = await accountOr404(ctx, request.params.id);
      const now = ctx.now(account);
      await store.transaction(async () => {
        await store.lockAccount(account.id);
        const order = await orderOr404(ctx, account.id, request.params.order_id);
        if (order.status !== 'received' && order.status !== 'in_production') {
          throw new ApiProblem(
            'invalid_state',
            `The order is ${order.status}; it cannot be shipped.`,
          );
        }
        const next = await store.orders.setStatus(order, 'shipped', now);
        await store.fulfilment.addShipment({
          id: newId('shp'),
          orderId: order.id,
          carrier: 'UPS',
          trackingNumber: `1Z${randomBase62(16).toUpperCase()}`,
          shippedAt: now,
        });
        await store.fulfilment.addInvoice({
          id: newId('inv'),
          orderId: order.id,
          total: order.total,
          // Card billing is charged when the order is placed; invoice billing leaves it open.
          status: account.settings.billing.method === 'card' ? 'paid' : 'open',
          createdAt: now,
        });
        await store.events.record(account.id, order.mode, 'order.shipped', now, orderView(next));
      });
      return reply.code(204).send();
    });
  };
}
