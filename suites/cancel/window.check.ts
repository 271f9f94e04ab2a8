import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, orderBody } from '../../lib/check/index.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { type Ordering, ordering } from '../support/ordering.js';
import { expectDetailSays } from './detail-says.js';

async function placed(ctx: CheckContext): Promise<Ordering & { id: string }> {
  const setup = await ordering(ctx);
  const res = await ctx.postOrder(setup.key, orderBody(ctx, setup.catalog));
  return { ...setup, id: idOf(ctx, requireSuccess(res, 'placing the order'), 'placing the order') };
}

function cancel(ctx: CheckContext, key: Key, id: string): Promise<HttpResponse> {
  return ctx.api(key).post(ctx.path('orderCancel', { id }));
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('CANCEL-01', async (ctx) => {
  // Section 3, order cancellation: "Within the 24-hour window, production not started, order not already cancelled → Order is cancelled."
  const { key, id } = await placed(ctx);
  if (!expectSuccess(ctx, await cancel(ctx, key, id), 'cancelling a new order')) return;
  // A 2xx alone proves nothing: the cancel took effect when the order is now "already cancelled"
  // (section 7: 409 not_cancellable for an order already cancelled).
  // Whether its detail says "already cancelled" is CANCEL-05's.
  ctx.expectProblem(await cancel(ctx, key, id), { status: 409, code: 'not_cancellable' });
});

check('CANCEL-02', async (ctx) => {
  // Section 3: the window is 24 hours; one minute before it closes the order is still cancellable.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await ctx.advanceClock(account, 24 * 3600 - 60);
  expectSuccess(ctx, await cancel(ctx, key, id), 'cancelling 23 hours 59 minutes after placing');
});

check('CANCEL-03', async (ctx) => {
  // Section 3: "The 24-hour window has closed … 409 not_cancellable. detail says which."
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await ctx.advanceClock(account, 24 * 3600 + 60);
  const res = await cancel(ctx, key, id);
  if (ctx.expectProblem(res, { status: 409, code: 'not_cancellable' })) {
    expectDetailSays(ctx, res, 'window');
  }
});
