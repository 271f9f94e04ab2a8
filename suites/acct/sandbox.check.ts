import { check } from '../../lib/check/index.js';
import { expectKeyRefused } from '../support/key-refusal.js';

// Section 5, rule 10 and section 7 (403 sandbox_not_enabled: test mode is off for the account).
// Contract "Readings": at the token request or at the call.
check('ACCT-03', async (ctx) => {
  const account = await ctx.newAccount({ test_mode: false });
  const key = await ctx.key({ mode: 'test', account });
  const refusal = await expectKeyRefused(ctx, key, { status: 403, code: 'sandbox_not_enabled' });
  ctx.note(`refused at the ${refusal.at === 'token' ? 'token request' : 'API call'}`);
});
