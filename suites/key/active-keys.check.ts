import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  HarnessError,
  type Key,
  type TestAccount,
} from '../../lib/check/index.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

const ACTIVE_KEYS = 10;

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

/**
 * Ten keys made in the account, all at once: the limit is on keys active at
 * the same time, however fast they were made (a target far away is not asked
 * one key after another).
 */
function tenKeys(ctx: CheckContext, account: TestAccount): Promise<Key[]> {
  return Promise.all(Array.from({ length: ACTIVE_KEYS }, () => ctx.key({ account })));
}

// Section 3, API key ("Up to 10 keys may be active at once") and section 8 (Active keys: 10).
check('KEY-06', async (ctx) => {
  const account = await ctx.newAccount();
  const keys = await tenKeys(ctx, account);
  // All ten are active together: each gets a token and serves a call, the keys side by side.
  await Promise.all(
    keys.map(async (key, index) => {
      const res = await requestToken(ctx, key);
      if (!ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
        ctx.note(`key ${index + 1} of ${ACTIVE_KEYS} got no token`);
        return;
      }
      ctx.expectStatus(
        await getAccountWith(ctx, issuedToken(res) ?? ''),
        ctx.dialect.operations.account.status,
      );
    }),
  );
});

// Contract section 3 ("the usual 10-active-keys limit holds"): an eleventh active key is refused,
// and a revoked key no longer counts, so after a revoke a new key can be made and works.
check('KEY-10', async (ctx) => {
  const account = await ctx.newAccount();
  const keys = await tenKeys(ctx, account);
  // Only once all ten exist: the eleventh.
  let eleventh: Key | undefined;
  try {
    eleventh = await ctx.key({ account });
  } catch (error) {
    // The control API refuses it (a 4xx): anything else (network, 5xx) is a harness error, not an answer.
    if (
      !(error instanceof HarnessError) ||
      !(error.status !== undefined && error.status >= 400 && error.status < 500)
    )
      throw error;
  }
  ctx.expectTrue(eleventh === undefined, {
    code: 'STATE',
    pointer: '/control/accounts/keys',
    expected: 'the eleventh active key refused',
    received: 'an eleventh active key was made',
    message: `an account holds ${ACTIVE_KEYS + 1} active keys`,
  });
  if (eleventh !== undefined) return;
  const first = keys[0];
  if (first === undefined) return;
  await ctx.control.revokeKey(first);
  const replacement = await ctx.key({ account });
  const res = await requestToken(ctx, replacement);
  ctx.expectStatus(res, ctx.dialect.operations.token.status);
});
