import { check, checksUseOwnAccounts, HarnessError } from '../../lib/check/index.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 3, API key: a roll gives the key a new Secret Key; the old one stops working at once.
check('KEY-01', async (ctx) => {
  const key = await ctx.key();
  ctx.requireStatus(await requestToken(ctx, key), ctx.dialect.operations.token.status); // the old secret worked before the roll
  await ctx.control.rollKey(key);
  expectNoToken(ctx, await requestToken(ctx, key), 'the Secret Key the roll replaced');
});

// Section 3, API key and token: every token made with the old Secret Key stops working at once,
// and requests with them get 401 invalid_token (section 5, rule 3).
check('KEY-02', async (ctx) => {
  const key = await ctx.key();
  const first = await requestToken(ctx, key);
  ctx.requireStatus(first, ctx.dialect.operations.token.status);
  const tokens = [
    issuedToken(first),
    issuedToken(await requestToken(ctx, key, { scope: 'orders:read' })),
  ].filter((t): t is string => t !== undefined);
  await ctx.control.rollKey(key);
  for (const token of tokens) {
    ctx.expectProblem(await getAccountWith(ctx, token), { status: 401, code: 'invalid_token' });
  }
});

// Section 3, API key: after a roll the key is active with its new Secret Key.
check('KEY-03', async (ctx) => {
  const key = await ctx.key();
  const rolled = await ctx.control.rollKey(key);
  const res = await requestToken(ctx, rolled);
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  ctx.expectStatus(
    await getAccountWith(ctx, issuedToken(res) ?? ''),
    ctx.dialect.operations.account.status,
  );
});

// Section 3: rolling a live key is not shown; a leaked live secret is revoked instead. The
// control protocol (contract section 3) answers 409 to a live roll; the key must stay as it was.
check('KEY-09', async (ctx) => {
  const account = await ctx.newAccount({ live_access: true });
  const live = await ctx.key({ mode: 'live', account });
  const before = issuedToken(await requestToken(ctx, live));
  let rolled = false;
  try {
    await ctx.control.rollKey(live);
    rolled = true;
  } catch (error) {
    if (!(error instanceof HarnessError) || error.status !== 409) throw error;
  }
  ctx.expectTrue(!rolled, {
    code: 'STATE',
    pointer: '/control/keys/roll',
    expected: 'control answers 409 to rolling a live key',
    received: 'the live key was rolled',
    message: 'a live key was rolled; the reference refuses (revoke and reissue instead)',
  });
  if (rolled) return;
  const again = await requestToken(ctx, live);
  ctx.expectStatus(again, ctx.dialect.operations.token.status);
  if (before !== undefined)
    ctx.expectStatus(await getAccountWith(ctx, before), ctx.dialect.operations.account.status);
});
