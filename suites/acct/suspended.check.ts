import {
  check,
  checksUseOwnAccounts,
  quoteBodyOf,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 5, rule 11 and section 7 (403 partner_suspended: new orders are refused).
check('ACCT-04', async (ctx) => {
  const account = await ctx.newAccount({ suspended: true });
  const key = await ctx.key({ mode: 'test', account });
  const externalId = uniqueExternalId('ct-suspended');
  const res = await ctx.postOrder(key, await ctx.orderBody({ externalId: externalId }));
  ctx.expectProblem(res, { status: 403, code: 'partner_suspended' });
  await expectNoOrder(ctx, key, externalId, 'the refused order of a suspended account');
});

// Section 5, rule 11 ("Reads keep working") and section 7: a new token too, or reads would end with the old one.
check('ACCT-05', async (ctx) => {
  const account = await ctx.newAccount();
  const key = await ctx.key({ mode: 'test', account });
  const order = await ctx.placeOrder(
    key,
    await ctx.orderBody({ externalId: uniqueExternalId('ct-susp') }),
  );
  await ctx.control.updateAccount(account.id, { suspended: true });
  const tokenRes = await requestToken(ctx, key);
  ctx.expectStatus(tokenRes, ctx.dialect.operations.token.status);
  const token = issuedToken(tokenRes) ?? (await ctx.token(key));
  const { operations } = ctx.dialect;
  const reads = [
    [ctx.path('account'), operations.account],
    [ctx.path('catalogProducts'), operations.catalogProducts],
    [ctx.path('orders'), operations.orderList],
    [ctx.path('order', { id: order.id }), operations.orderRead],
  ] as const;
  // The reads at once with the new token, judged in order.
  const answers = await allAtOnce(reads, async ([path, operation]) => ({
    operation,
    res: await ctx.send({ method: 'GET', path, auth: { kind: 'bearer', token } }),
  }));
  for (const { operation, res } of answers) ctx.expectStatus(res, operation.status);
});

// Contract "Readings": what else a suspended account refuses is the dialect's; the reference refuses quotes.
check('ACCT-07', async (ctx) => {
  const account = await ctx.newAccount({ suspended: true });
  const key = await ctx.key({ mode: 'test', account });
  const body = await ctx.orderBody();
  const res = await ctx.api(key).post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, body));
  ctx.expectProblem(res, { status: 403, code: 'partner_suspended' });
});
