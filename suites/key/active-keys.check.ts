import { check, type Key } from '../../lib/check/index.js';
import { HarnessError } from '../../lib/violations/harness-error.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';

const ACTIVE_KEYS = 10;

// Section 3, API key ("Up to 10 keys may be active at once") and section 8 (Active keys: 10).
check('KEY-06', async (ctx) => {
  const account = await ctx.newAccount();
  const keys: Key[] = [];
  for (let i = 0; i < ACTIVE_KEYS; i++) keys.push(await ctx.key({ account }));
  for (const [index, key] of keys.entries()) {
    const res = await requestToken(ctx, key);
    if (!ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
      ctx.note(`key ${index + 1} of ${ACTIVE_KEYS} got no token`);
      continue;
    }
    ctx.expectStatus(
      await getAccountWith(ctx, issuedToken(res) ?? ''),
      ctx.dialect.operations.account.status,
    );
  }
});

// Contract section 3 ("the usual 10-active-keys limit holds"): an eleventh active key is refused,
// and a revoked key no longer counts, so after a revoke a new key can be made and works.
check('KEY-10', async (ctx) => {
  const account = await ctx.newAccount();
  const keys: Key[] = [];
  for (let i = 0; i < ACTIVE_KEYS; i++) keys.push(await ctx.key({ account }));
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
