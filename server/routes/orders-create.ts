import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { readJsonBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { idempotencyKeyOf } from '../orders/idempotency-key.js';
import {
  correctPlacement,
  type PlaceOrderBehaviour,
  type PlaceOrderResult,
  placeOrder,
  requestFingerprint,
} from '../orders/place-order.js';
import { type OrderBody, OrderBodySchema, parseBody } from '../validation/order-body.js';

/**
 * The steps of `POST /orders` (server/behaviour.ts part `orders`), the
 * placement's own included; `correctOrderCreation` is the reference's.
 */
export interface OrderCreateBehaviour extends PlaceOrderBehaviour {
  /** §4: the request's Idempotency-Key, or a 400. */
  idempotencyKeyOf(request: FastifyRequest): string;
  /** §4: the JSON body (415 otherwise) and the order it describes (422 otherwise). */
  readOrderBody(request: FastifyRequest): { body: unknown; input: OrderBody };
  /** Contract §2: the fingerprint that tells the same request from another. */
  fingerprint(request: FastifyRequest, body: unknown): Buffer;
  /** Places the order (orders/place-order.ts). */
  place: typeof placeOrder;
  /** Contract §2: a replay is 200 with `Idempotent-Replayed: true` and the same order. */
  sendReplay(reply: FastifyReply, view: PlaceOrderResult['view']): FastifyReply;
}

export function correctOrderCreation(ctx: AppContext): OrderCreateBehaviour {
  return {
    ...correctPlacement(ctx),
    idempotencyKeyOf,
    readOrderBody: (request) => {
      const body = readJsonBody(request);
      return { body, input: parseBody(OrderBodySchema, body) };
    },
    fingerprint: (_request, body) => requestFingerprint('POST', '/orders', body),
    place: placeOrder,
    sendReplay: (reply, view) => reply.code(200).header('idempotent-replayed', 'true').send(view),
  };
}

async function createOrder(
  ctx: AppContext,
  behave: OrderCreateBehaviour,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const principal = principalOf(request);
  const idempotencyKey = behave.idempotencyKeyOf(request);
  const { body, input } = behave.readOrderBody(request);
  const fingerprint = behave.fingerprint(request, body);
  const { order, view, replayed } = await behave.place(
    ctx,
    request,
    principal,
    idempotencyKey,
    fingerprint,
    input,
    behave,
  );
  if (replayed) return behave.sendReplay(reply, view);
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
export function orderCreateRoutes(ctx: AppContext, gate: TokenGate, behave: OrderCreateBehaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/orders', { onRequest: gate('createOrder') }, (request, reply) =>
      createOrder(ctx, behave, request, reply),
    );
  };
}
