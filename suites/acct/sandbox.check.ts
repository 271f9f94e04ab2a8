import { check } from '../../lib/check/index.js';
import { expectKeyRefused } from '../support/key-refusal.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

// Section 5, rule 10 and section 7 (403 sandbox_not_enabled: test mode is off for the account).
// Contract "Readings": at the token request or at the call.
check('ACCT-03', async (ctx) => {
  const account = await ctx.newAccount({ test_mode: false });
  const key = await ctx.key({ mode: 'test', account });
  const refusal = await expectKeyRefused(ctx, key, { status: 403, code: 'sandbox_not_enabled' });
  ctx.note(`refused at the ${refusal.at === 'token' ? 'token request' : 'API call'}`);
  // The other side of the scope: the rule names test keys; a live key of an account with
  // live access on is served while test mode is off (reads only: no live order is placed).
  const live = await ctx.key({
    mode: 'live',
    account: await ctx.newAccount({ test_mode: false, live_access: true }),
  });
  const res = await requestToken(ctx, live);
  if (ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
    ctx.expectStatus(
      await getAccountWith(ctx, issuedToken(res) ?? ''),
      ctx.dialect.operations.account.status,
    );
  }
});
