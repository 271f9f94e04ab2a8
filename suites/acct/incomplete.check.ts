import { check, uniqueExternalId } from '../../lib/check/index.js';
import { expectNoOrder } from '../support/expect-orders.js';

// Section 7 (409 account_incomplete: the account lacks something needed to place orders).
check('ACCT-06', async (ctx) => {
  const account = await ctx.newAccount({ incomplete: true });
  const key = await ctx.key({ mode: 'test', account });
  const externalId = uniqueExternalId('ct-incomplete');
  const res = await ctx.postOrder(key, await ctx.orderBody({ externalId: externalId }));
  ctx.expectProblem(res, { status: 409, code: 'account_incomplete' });
  await expectNoOrder(ctx, key, externalId, 'the refused order of an incomplete account');
});
