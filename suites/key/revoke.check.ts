import { check, checksUseOwnAccounts, HarnessError } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 3, API key (revoke: "all its tokens stop working; requests with them get invalid_token")
// and section 5, rule 3. A live key is revoked the same way (section 3: a leaked live secret is revoked).
check('KEY-04', async (ctx) => {
  const account = await ctx.newAccount({ live_access: true });
  // Each step's requests stand alone: all at once, judged in order.
  // The other side of the scope: revoking names one key; another key of the account (the sibling)
  // keeps working.
  const [test, live, sibling] = await allAtOnce([{}, { mode: 'live' as const }, {}], (options) =>
    ctx.key({ ...options, account }),
  );
  if (!test || !live || !sibling) throw new Error('three keys were asked for');
  const keys = [test, live];
  const asked = keys.flatMap((key) => [undefined, 'catalog:read'].map((scope) => ({ key, scope })));
  const issued = await allAtOnce([...asked, { key: sibling, scope: undefined }], ({ key, scope }) =>
    requestToken(ctx, key, scope ? { scope } : {}),
  );
  const tokens = asked.map(({ key }, i) => {
    const res = issued[i] as (typeof issued)[number];
    const token = issuedToken(res);
    // Without its tokens the check would test nothing: a set-up error, never a pass.
    if (token === undefined) {
      throw new HarnessError(
        'HARNESS_SETUP',
        `no token for a ${key.mode} key before the revoke: HTTP ${res.status} (evidence #${res.exchange})`,
      );
    }
    return token;
  });
  const siblingToken = issuedToken(issued.at(-1) as (typeof issued)[number]);
  await allAtOnce(keys, (key) => ctx.control.revokeKey(key));
  if (siblingToken === undefined) {
    throw new HarnessError('HARNESS_SETUP', 'no token for the key that stays active');
  }
  const answers = await allAtOnce(
    [
      ...tokens.map((token) => () => getAccountWith(ctx, token)),
      () => getAccountWith(ctx, siblingToken),
      () => requestToken(ctx, sibling),
    ],
    (call) => call(),
  );
  const [siblingCall, siblingAgain] = answers.splice(tokens.length);
  for (const res of answers) ctx.expectProblem(res, { status: 401, code: 'invalid_token' });
  if (siblingCall) ctx.expectStatus(siblingCall, ctx.dialect.operations.account.status);
  if (siblingAgain) ctx.expectStatus(siblingAgain, ctx.dialect.operations.token.status);
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
