import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  HarnessError,
  idIn,
  newIdempotencyKey,
  type OrderBody,
  orderBody,
} from '../../lib/check/index.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { type Ordering, ordering } from '../support/ordering.js';

checksUseOwnAccounts();

/** An account whose card is declined, the order it refused, and the key that sent it. */
async function declinedOrder(
  ctx: CheckContext,
): Promise<Ordering & { body: OrderBody; idempotencyKey: string; accountId: string }> {
  const setup = await ordering(ctx, {
    billing: { method: 'card', card: 'declined', decline_code: 'insufficient_funds' },
  });
  if (!setup.account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const body = orderBody(ctx, setup.catalog);
  const idempotencyKey = newIdempotencyKey();
  const res = await ctx.postOrder(setup.key, body, { idempotencyKey });
  if (res.status !== 402) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `a declined card did not refuse the order: HTTP ${res.status} (evidence #${res.exchange})`,
    );
  }
  await ctx.control.updateAccount(setup.account.id, { billing: { method: 'card', card: 'valid' } });
  return { ...setup, body, idempotencyKey, accountId: setup.account.id };
}

function placedId(ctx: CheckContext, res: HttpResponse, what: string): string | undefined {
  if (!expectSuccess(ctx, res, what)) return undefined;
  const id = idIn(ctx.dialect, 'order', res.json);
  return typeof id === 'string' ? id : undefined;
}

check('IDEM-13', async (ctx) => {
  // Section 4, idempotency rule 5: "After a 402 payment error no order exists. The order is sent again with a new key."
  const { key, body } = await declinedOrder(ctx);
  const res = await ctx.postOrder(key, body, { idempotencyKey: newIdempotencyKey() });
  const id = placedId(ctx, res, 'the order sent again with a new key after billing was fixed');
  if (id) await expectSingleOrder(ctx, key, body.external_id, id, 'a 402 and a new key');
});

check('IDEM-14', async (ctx) => {
  // Contract section 2 readings: the same Idempotency-Key sent again after a 402 is processed afresh.
  const { key, body, idempotencyKey } = await declinedOrder(ctx);
  const res = await ctx.postOrder(key, body, { idempotencyKey });
  const id = placedId(ctx, res, 'the order sent again with the same key after billing was fixed');
  if (id) await expectSingleOrder(ctx, key, body.external_id, id, 'a 402 and the same key');
});
