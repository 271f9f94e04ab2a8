import type { AppContext } from '../../context.js';
import type { Mode } from '../../domain/modes.js';
import type { OrderCreateBehaviour } from '../../routes/orders-create.js';
import { orderView } from '../../views/order.js';
import { idempotencyRecordAcross, orderInAnyAccount } from '../lookups.js';

/**
 * `idem-replay-across-accounts`, `idem-replay-across-modes` (issue 26): a
 * request whose Idempotency-Key has no record in its own account and mode,
 * but whose key and body another account (or the other mode) already placed,
 * is answered with that order as a replay. Any other request goes the
 * correct way (a different body is a new request, never a conflict), so only
 * the isolation of replays breaks. Wraps the placement (`place`).
 */
export function replayingAcross(
  ctx: AppContext,
  place: OrderCreateBehaviour['place'],
): OrderCreateBehaviour['place'] {
  const { store, hasDefect } = ctx;
  const acrossAccounts = hasDefect('idem-replay-across-accounts');
  const acrossModes = hasDefect('idem-replay-across-modes');
  if (!acrossAccounts && !acrossModes) return place;
  return async (app, request, principal, idempotencyKey, fingerprint, input, behave) => {
    const { account, mode } = principal;
    const own = await behave.findRecord(account.id, mode, idempotencyKey);
    if (!own) {
      const otherMode: Mode = mode === 'test' ? 'live' : 'test';
      const record = await idempotencyRecordAcross(
        store,
        idempotencyKey,
        acrossAccounts ? { mode } : { accountId: account.id, mode: otherMode },
      );
      if (record && behave.sameRequest(record.fingerprint, fingerprint)) {
        const order = acrossAccounts
          ? await orderInAnyAccount(store, mode, record.order_id)
          : await store.orders.get(account.id, otherMode, record.order_id);
        if (order) return { order, view: orderView(order), replayed: true };
      }
    }
    return place(app, request, principal, idempotencyKey, fingerprint, input, behave);
  };
}
