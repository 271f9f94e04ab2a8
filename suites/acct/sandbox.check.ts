import { type CheckContext, check, type HttpResponse, succeeded } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { expectKeyRefused } from '../support/key-refusal.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

// Section 5, rule 10 and section 7 (403 sandbox_not_enabled: test mode is off for the account).
// Contract "Readings": at the token request or at the call.
check('ACCT-03', async (ctx) => {
  // The refused test key, and (below) the served live key: two accounts, at once.
  const [refusal, live] = await together(
    ctx
      .newAccount({ test_mode: false })
      .then((account) => ctx.key({ mode: 'test', account }))
      .then((key) => expectKeyRefused(ctx, key, { status: 403, code: 'sandbox_not_enabled' })),
    servedLiveKey(ctx),
  );
  ctx.note(`refused at the ${refusal.at === 'token' ? 'token request' : 'API call'}`);
  if (ctx.expectStatus(live.token, ctx.dialect.operations.token.status) && live.account) {
    ctx.expectStatus(live.account, ctx.dialect.operations.account.status);
  }
});

/**
 * The other side of the scope: the rule names test keys; a live key of an account with
 * live access on is served while test mode is off (reads only: no live order is placed).
 */
async function servedLiveKey(
  ctx: CheckContext,
): Promise<{ token: HttpResponse; account: HttpResponse | undefined }> {
  const live = await ctx.key({
    mode: 'live',
    account: await ctx.newAccount({ test_mode: false, live_access: true }),
  });
  const token = await requestToken(ctx, live);
  // The account is read only once a token was issued (both judged in order above).
  const served = succeeded(ctx.dialect, 'token', token.status);
  return {
    token,
    account: served ? await getAccountWith(ctx, issuedToken(token) ?? '') : undefined,
  };
}
