import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { rfc3339 } from '../domain/time.js';
import type { Charge } from '../store/charges.js';
import { accountOr404 } from './request.js';

type WithId = { Params: { id: string } };

/** One charge as the control protocol shows it: money in integer cents (contract §2 readings). */
function chargeView(charge: Charge) {
  return {
    id: charge.id,
    order_id: charge.orderId,
    external_id: charge.externalId,
    mode: charge.mode,
    amount: charge.amount,
    currency: 'USD',
    created_at: rfc3339(charge.createdAt),
  };
}

/**
 * Control protocol addition, feature `charges` (docs/contract-additions.md):
 * `GET /accounts/{id}/charges` answers 200 `{"data": [...]}`, every charge
 * made to the account's card, both modes, oldest first, so that a check can
 * see that nothing was charged where §7 says so (402, 500, 503).
 */
export function controlChargeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get<WithId>('/accounts/:id/charges', async (request) => {
      const account = await accountOr404(ctx, request.params.id);
      return { data: (await ctx.store.charges.ofAccount(account.id)).map(chargeView) };
    });
  };
}
