import { check } from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { keyScopes } from '../support/key-scopes.js';

// Section 4, endpoint table: GET /account needs "any valid token" (section 5 leaves the scope unshown;
// the contract holds to the table), so a token with one unrelated scope reads it too.
check('SCOPE-03', async (ctx) => {
  const key = await ctx.key();
  const scopes = await keyScopes(ctx, key);
  // A token with every scope, and one with each scope alone: each reads the account, all at once.
  const [full, alone] = await together(
    ctx.api(key).get(ctx.path('account')),
    allAtOnce(scopes, async (scope) => ({
      scope,
      res: await ctx.api(key, [scope]).get(ctx.path('account')),
    })),
  );
  ctx.expectStatus(full, ctx.dialect.operations.account.status);
  for (const { scope, res } of alone) {
    if (!ctx.expectStatus(res, ctx.dialect.operations.account.status))
      ctx.note(`a token with only ${scope} could not read the account`);
  }
});
