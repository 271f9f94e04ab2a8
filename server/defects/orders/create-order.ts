import type { AppContext } from '../../context.js';
import { sha256 } from '../../crypto/secret-hash.js';
import { newId } from '../../domain/ids.js';
import { parseJsonBody, readJsonBody } from '../../http/body.js';
import { correctOrderCreation, type OrderCreateBehaviour } from '../../routes/orders-create.js';
import { OrderBodySchema, parseBody } from '../../validation/order-body.js';
import { lenientOrderBody, refuseZipPlus4 } from '../requests.js';
import { bentIdempotencyKeyOf } from './idempotency-key.js';
import { defectivePlace, defectivePlacement } from './place-order.js';
import { replayingAcross } from './replay-across.js';

/**
 * The decisions of POST /orders (routes/orders-create.ts
 * `OrderCreateBehaviour`) of a defective server: the request, idempotency and
 * placement defects. Plugged in as `ctx.hooks.orders` only when defects are on.
 */
export function defectiveOrderCreation(ctx: AppContext): Partial<OrderCreateBehaviour> {
  const correct = correctOrderCreation(ctx);
  const { hasDefect } = ctx;
  return {
    ...defectivePlacement(ctx, correct),
    idempotencyKeyOf: bentIdempotencyKeyOf(correct.idempotencyKeyOf, hasDefect),
    readOrderBody: (request) => {
      const json = hasDefect('order-any-media-type')
        ? parseJsonBody(request)
        : readJsonBody(request);
      const body = lenientOrderBody(json, hasDefect);
      const input = parseBody(OrderBodySchema, body);
      if (hasDefect('order-zip4-refused')) refuseZipPlus4(input);
      return { body, input };
    },
    fingerprint: (request, body) =>
      hasDefect('idem-raw-body-compared')
        ? sha256(String(request.body))
        : correct.fingerprint(request, body),
    place: replayingAcross(ctx, defectivePlace(ctx, correct)),
    sendReplay: (reply, view) => {
      if (!hasDefect('idem-replay-without-header')) reply.header('idempotent-replayed', 'true');
      return reply
        .code(hasDefect('idem-replay-201') ? 201 : 200)
        .send(hasDefect('idem-replay-new-id') ? { ...view, id: newId('ord') } : view);
    },
  };
}
