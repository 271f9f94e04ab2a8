import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireToken } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { readJsonBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { idempotencyKeyOf } from '../orders/idempotency-key.js';
import { placeOrder, requestFingerprint } from '../orders/place-order.js';
import { OrderBodySchema, parseBody } from '../validation/order-body.js';

async function createOrder(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const principal = principalOf(request);
  const idempotencyKey = idempotencyKeyOf(request);
  const body = readJsonBody(request);
  const input = parseBody(OrderBodySchema, body);
  const fingerprint = requestFingerprint('POST', '/orders', body);
  const { order, view, replayed } = await placeOrder(
    ctx,
    request,
    principal,
    idempotencyKey,
    fingerprint,
    input,
  );
  if (replayed) return reply.code(200).header('idempotent-replayed', 'true').send(view);
  return reply
    .code(201)
    .header('location', `${request.url.split('?')[0]}/${order.id}`)
    .send(view);
}

/**
 * §4 `POST /orders` (scope orders:write): Idempotency-Key required (400),
 * JSON only (415), the body's fields (422), then the order itself
 * (orders/place-order.ts). Contract §2: 201 on first creation; a replay is 200
 * with `Idempotent-Replayed: true` and the same order.
 */
export function orderCreateRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    // The test-only defect catalogue, when switched on, places orders its own way.
    const create = ctx.hooks.createOrder ?? createOrder;
    app.post('/orders', { onRequest: requireToken(ctx, 'orders:write') }, (request, reply) =>
      create(ctx, request, reply),
    );
  };
}
