import { newId } from '../domain/ids.js';
import { priceItems } from '../orders/price-items.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { OrderCreateBehaviour } from '../routes/orders-create.js';
import type { DefectEnv } from './defect.js';

type Place = OrderCreateBehaviour['place'];

/**
 * The placement of a server that takes the payment outside the transaction
 * that stores the order: when a refusal or a failure `after` the card was
 * charged leaves no order, the charge of the order's total stays all the same
 * (recorded on its own, as a payment provider would keep it). A bend of the
 * `orders.place` member, shared by the defects that charge where §7 says
 * "nothing charged".
 */
export function chargedAnyway(env: DefectEnv, after: (problem: ApiProblem) => boolean) {
  const { store, shippingCents } = env.ctx;
  return (place: Place): Place =>
    async (app, request, principal, idempotencyKey, fingerprint, input, behave) => {
      try {
        return await place(app, request, principal, idempotencyKey, fingerprint, input, behave);
      } catch (error) {
        const { account, mode, now } = principal;
        if (
          error instanceof ApiProblem &&
          after(error) &&
          account.settings.billing.method === 'card' &&
          (await store.orders.getByExternalId(account.id, mode, input.external_id)) === undefined
        ) {
          await store.charges.record({
            id: newId('ch'),
            accountId: account.id,
            mode,
            orderId: null,
            externalId: input.external_id,
            amount: amountOf(account.settings, input) + shippingCents,
            createdAt: now,
          });
        }
        throw error;
      }
    };
}

function amountOf(settings: Parameters<typeof priceItems>[0], input: Parameters<Place>[5]): number {
  try {
    return priceItems(settings, input.items, input.shipping_address.country).total;
  } catch {
    return 0;
  }
}
