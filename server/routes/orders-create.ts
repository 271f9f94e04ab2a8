import type { FastifyInstance } from 'fastify';
import { requireToken } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { sha256 } from '../crypto/secret-hash.js';
import { lenientOrderBody, refuseZipPlus4 } from '../defects/requests.js';
import { newId } from '../domain/ids.js';
import { readJsonBody } from '../http/body.js';
import { refuseQuery } from '../http/query.js';
import { idempotencyKeyOf } from '../orders/idempotency-key.js';
import { placeOrder, requestFingerprint } from '../orders/place-order.js';
import { OrderBodySchema, parseBody } from '../validation/order-body.js';

/**
 * §4 `POST /orders` (scope orders:write): Idempotency-Key required (400),
 * JSON only (415), the body's fields (422), then the order itself
 * (orders/place-order.ts). Contract §2: 201 on first creation; a replay is 200
 * with `Idempotent-Replayed: true` and the same order.
 */
export function orderCreateRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post(
      '/orders',
      { onRequest: requireToken(ctx, 'orders:write') },
      async (request, reply) => {
        refuseQuery(request);
        const principal = principalOf(request);
        const idempotencyKey = idempotencyKeyOf(request, ctx.hasDefect);
        const body = lenientOrderBody(readJsonBody(request), ctx.hasDefect);
        const input = parseBody(OrderBodySchema, body);
        if (ctx.hasDefect('order-zip4-refused')) refuseZipPlus4(input);
        const fingerprint = ctx.hasDefect('idem-raw-body-compared')
          ? sha256(String(request.body))
          : requestFingerprint('POST', '/orders', body);
        const { order, view, replayed } = await placeOrder(
          ctx,
          request,
          principal,
          idempotencyKey,
          fingerprint,
          input,
        );
        if (replayed) {
          if (!ctx.hasDefect('idem-replay-without-header'))
            reply.header('idempotent-replayed', 'true');
          return reply
            .code(ctx.hasDefect('idem-replay-201') ? 201 : 200)
            .send(ctx.hasDefect('idem-replay-new-id') ? { ...view, id: newId('ord') } : view);
        }
        return reply
          .code(201)
          .header('location', `${request.url.split('?')[0]}/${order.id}`)
          .send(view);
      },
    );
  };
}
