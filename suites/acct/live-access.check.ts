import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { expectKeyRefused } from '../support/key-refusal.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 5, rule 10 and section 7 (403 api_not_enabled). Contract "Readings": at the token request
// or at the call. Only reads are tried: a live key never places an order here.
check('ACCT-01', async (ctx) => {
  const account = await ctx.newAccount({ live_access: false });
  const live = await ctx.key({ mode: 'live', account });
  const refusal = await expectKeyRefused(ctx, live, { status: 403, code: 'api_not_enabled' });
  ctx.note(`refused at the ${refusal.at === 'token' ? 'token request' : 'API call'}`);
  // The other side of the scope: the rule names live keys; the account's test key is served.
  const test = await ctx.key({ mode: 'test', account });
  const res = await requestToken(ctx, test);
  if (ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
    ctx.expectStatus(
      await getAccountWith(ctx, issuedToken(res) ?? ''),
      ctx.dialect.operations.account.status,
    );
  }
});

// Section 5, rule 10: the refusal lasts only until live access is switched on.
check('ACCT-02', async (ctx) => {
  const account = await ctx.newAccount({ live_access: false });
  const live = await ctx.key({ mode: 'live', account });
  const before = await requestToken(ctx, live); // refused, at the token request or the call
  const early = issuedToken(before);
  if (early !== undefined) await getAccountWith(ctx, early);
  await ctx.control.updateAccount(account.id, { live_access: true });
  const res = await requestToken(ctx, live);
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  const token = issuedToken(res) ?? '';
  ctx.expectStatus(await getAccountWith(ctx, token), ctx.dialect.operations.account.status);
  ctx.expectStatus(
    await ctx.send({
      method: 'GET',
      path: ctx.path('catalogProducts'),
      auth: { kind: 'bearer', token },
    }),
    200,
  );
});

// Contract "Readings": the reference refuses api_not_enabled and sandbox_not_enabled at the token request.
check('ACCT-08', async (ctx) => {
  const notLive = await ctx.newAccount({ live_access: false });
  const live = await ctx.key({ mode: 'live', account: notLive });
  ctx.expectProblem(await requestToken(ctx, live), { status: 403, code: 'api_not_enabled' });
  const noSandbox = await ctx.newAccount({ test_mode: false });
  const test = await ctx.key({ mode: 'test', account: noSandbox });
  ctx.expectProblem(await requestToken(ctx, test), { status: 403, code: 'sandbox_not_enabled' });
});
