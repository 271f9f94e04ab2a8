import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { sha256 } from '../../crypto/secret-hash.js';
import { newId } from '../../domain/ids.js';
import { parseJsonBody, readJsonBody } from '../../http/body.js';
import { refuseQuery } from '../../http/query.js';
import { requestFingerprint } from '../../orders/place-order.js';
import { OrderBodySchema, parseBody } from '../../validation/order-body.js';
import { lenientOrderBody, refuseZipPlus4 } from '../requests.js';
import { idempotencyKeyOf } from './idempotency-key.js';
import { defectivePlaceOrder } from './place-order.js';

/**
 * POST /orders of a defective server (routes/orders-create.ts with the order
 * and idempotency defects switched in): plugged in as `ctx.hooks.createOrder`
 * only when defects are on.
 */
export async function defectiveCreateOrder(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  refuseQuery(request);
  const principal = principalOf(request);
  const idempotencyKey = idempotencyKeyOf(request, ctx.hasDefect);
  const json = ctx.hasDefect('order-any-media-type')
    ? parseJsonBody(request)
    : readJsonBody(request);
  const body = lenientOrderBody(json, ctx.hasDefect);
  const input = parseBody(OrderBodySchema, body);
  if (ctx.hasDefect('order-zip4-refused')) refuseZipPlus4(input);
  const fingerprint = ctx.hasDefect('idem-raw-body-compared')
    ? sha256(String(request.body))
    : requestFingerprint('POST', '/orders', body);
  const { order, view, replayed } = await defectivePlaceOrder(
    ctx,
    request,
    principal,
    idempotencyKey,
    fingerprint,
    input,
  );
  if (replayed) {
    if (!ctx.hasDefect('idem-replay-without-header')) reply.header('idempotent-replayed', 'true');
    return reply
      .code(ctx.hasDefect('idem-replay-201') ? 201 : 200)
      .send(ctx.hasDefect('idem-replay-new-id') ? { ...view, id: newId('ord') } : view);
  }
  return reply
    .code(201)
    .header('location', `${request.url.split('?')[0]}/${order.id}`)
    .send(view);
}
