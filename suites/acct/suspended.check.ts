import {
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  quoteBodyOf,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { everyRead, sendReads, servedReads } from '../support/every-read.js';
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

// Section 5, rule 11 ("Reads keep working") and section 7: every read of the endpoint table (the
// account, the catalog and a product, a quote, orders, one order by id and by external id, its
// shipments and invoice, webhook endpoints and events, each list and one), each served before the
// suspension, is served after it; a new token too, or reads would end with the old one.
check('ACCT-05', async (ctx) => {
  const account = await ctx.newAccount();
  const key = await ctx.key({ mode: 'test', account });
  const body = await ctx.orderBody({ externalId: uniqueExternalId('ct-susp') });
  const order = await ctx.placeOrder(key, body);
  const reads = await everyRead(ctx, key, { id: order.id, body }, account);
  const served = await servedReads(ctx, reads, { kind: 'key', key });
  await ctx.control.updateAccount(account.id, { suspended: true });
  const tokenRes = await requestToken(ctx, key);
  ctx.expectStatus(tokenRes, ctx.dialect.operations.token.status);
  const token = issuedToken(tokenRes) ?? (await ctx.token(key));
  // The reads at once with the new token, judged in order.
  const answers = await sendReads(ctx, served, { kind: 'bearer', token });
  for (const [i, { what, operation }] of served.entries()) {
    const res = answers[i] as HttpResponse;
    if (!ctx.expectStatus(res, ctx.dialect.operations[operation].status))
      ctx.note(`${what} was refused while the account was suspended`);
  }
});

// Contract "Readings": what else a suspended account refuses is the dialect's; the reference refuses quotes.
check('ACCT-07', async (ctx) => {
  const account = await ctx.newAccount({ suspended: true });
  const key = await ctx.key({ mode: 'test', account });
  const body = await ctx.orderBody();
  const res = await ctx.api(key).post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, body));
  ctx.expectProblem(res, { status: 403, code: 'partner_suspended' });
});
