import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { expectSuccess } from '../support/expect-success.js';
import { requestToken } from '../support/token-request.js';
import { firstRefusal } from './burst.js';
import { TOKENS, WRITES } from './limit-classes.js';

checksUseOwnAccounts();

// Section 8: every limit is "per key": a key that used up its token requests and its writes leaves
// another key of the same account untouched.
check('RATE-07', async (ctx) => {
  const account = await ctx.account();
  const busy = await ctx.key({ account });
  const other = await ctx.key({ account });
  const otherWrite = await WRITES.sender(ctx, other); // takes its token before anything is used up
  const busyWrite = await WRITES.sender(ctx, busy);
  const tokens = await firstRefusal(TOKENS.perMinute, await TOKENS.sender(ctx, busy));
  if (!tokens) ctx.note('the first key was never refused a token; compared all the same');
  ctx.expectStatus(await requestToken(ctx, other), ctx.dialect.operations.token.status);
  const writes = await firstRefusal(WRITES.perMinute, busyWrite);
  if (!writes) ctx.note('the first key was never refused a write; compared all the same');
  // Served is any 2xx: the exact success status of a quote is not shown.
  expectSuccess(ctx, await otherWrite(), 'a write of the other key');
});

// Section 8: token requests have their own limit (20), apart from reads (300) and writes (60):
// using up the token requests leaves calls with an existing token working.
check('RATE-08', async (ctx) => {
  const key = await ctx.key();
  const write = await WRITES.sender(ctx, key);
  const token = await ctx.token(key);
  const refused = await firstRefusal(TOKENS.perMinute, await TOKENS.sender(ctx, key));
  if (!refused) ctx.note('the key was never refused a token; calls checked all the same');
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: ctx.path('account'), auth: { kind: 'bearer', token } }),
    ctx.dialect.operations.account.status,
  );
  expectSuccess(ctx, await write(), 'a write with the token requests used up');
});
