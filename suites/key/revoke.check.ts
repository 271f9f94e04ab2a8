import { check, checksUseOwnAccounts, HarnessError } from '../../lib/check/index.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 3, API key (revoke: "all its tokens stop working; requests with them get invalid_token")
// and section 5, rule 3. A live key is revoked the same way (section 3: a leaked live secret is revoked).
check('KEY-04', async (ctx) => {
  const account = await ctx.newAccount({ live_access: true });
  const keys = [await ctx.key({ account }), await ctx.key({ mode: 'live', account })];
  const tokens: string[] = [];
  for (const key of keys) {
    for (const scope of [undefined, 'catalog:read']) {
      const res = await requestToken(ctx, key, scope ? { scope } : {});
      const token = issuedToken(res);
      // Without its tokens the check would test nothing: a set-up error, never a pass.
      if (token === undefined) {
        throw new HarnessError(
          'HARNESS_SETUP',
          `no token for a ${key.mode} key before the revoke: HTTP ${res.status} (evidence #${res.exchange})`,
        );
      }
      tokens.push(token);
    }
  }
  // The other side of the scope: revoking names one key; another key of the account keeps working.
  const sibling = await ctx.key({ account });
  const siblingToken = issuedToken(await requestToken(ctx, sibling));
  for (const key of keys) await ctx.control.revokeKey(key);
  for (const token of tokens) {
    ctx.expectProblem(await getAccountWith(ctx, token), { status: 401, code: 'invalid_token' });
  }
  if (siblingToken === undefined) {
    throw new HarnessError('HARNESS_SETUP', 'no token for the key that stays active');
  }
  ctx.expectStatus(await getAccountWith(ctx, siblingToken), ctx.dialect.operations.account.status);
  ctx.expectStatus(await requestToken(ctx, sibling), ctx.dialect.operations.token.status);
});

// Section 3, API key: revoked is a permanent state; a revoked key gets no more tokens.
check('KEY-05', async (ctx) => {
  const account = await ctx.account();
  const key = await ctx.key({ account });
  await ctx.control.revokeKey(key);
  expectNoToken(ctx, await requestToken(ctx, key), 'a revoked key');
  if (ctx.has('clock')) {
    // Permanent: a day later (past any token lifetime or rate window) it is still refused.
    await ctx.advanceClock(account, 86_400);
    expectNoToken(ctx, await requestToken(ctx, key), 'a key revoked a day ago');
  } else {
    ctx.note(
      '"permanently" checked only at once: moving the clock needs the control feature "clock"',
    );
  }
});
