import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  HarnessError,
  type Key,
  type TestAccount,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
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

/**
 * A key made through the control protocol, or undefined when it refuses one
 * (a 4xx); anything else (network, 5xx) is a harness error, not an answer.
 */
async function keyUnlessRefused(ctx: CheckContext, account: TestAccount): Promise<Key | undefined> {
  try {
    return await ctx.key({ account });
  } catch (error) {
    if (
      error instanceof HarnessError &&
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500
    )
      return undefined;
    throw error;
  }
}

/** Whether a key is active as the API shows it: it gets a token, and the token serves a call. */
async function works(ctx: CheckContext, key: Key): Promise<boolean> {
  const token = issuedToken(await requestToken(ctx, key));
  if (token === undefined) return false;
  const res = await getAccountWith(ctx, token);
  return res.status === ctx.dialect.operations.account.status;
}

// Section 3, API key: "Up to 10 keys may be active at once" (section 8: Active keys 10). Keys are
// made through the control protocol (the developer portal's part); the API shows which are active.
// Both sides: never eleven working at once, and a revoked key's place taken by a tenth that works.
check('KEY-12', async (ctx) => {
  const account = await ctx.newAccount();
  const keys = await tenKeys(ctx, account);
  const eleventh = await keyUnlessRefused(ctx, account);
  if (eleventh === undefined) {
    ctx.note('the control protocol refused an eleventh key');
    ctx.judged();
  } else {
    // It was made: the API must then not let all eleven work at once.
    const working = await allAtOnce([...keys, eleventh], (key) => works(ctx, key));
    const count = working.filter(Boolean).length;
    ctx.expectTrue(count <= ACTIVE_KEYS, {
      code: 'STATE',
      pointer: '/keys',
      expected: `at most ${ACTIVE_KEYS} keys working at once`,
      received: `${count} keys each got a token that served GET /account`,
      message: `an account had ${count} keys active at once`,
    });
    await ctx.control.revokeKey(eleventh);
  }
  // One revoked: the account has nine active keys, so a tenth may be made and must work.
  const [first] = keys;
  if (first === undefined) return;
  await ctx.control.revokeKey(first);
  const tenth = await keyUnlessRefused(ctx, account);
  ctx.expectTrue(tenth !== undefined, {
    code: 'STATE',
    pointer: '/control/accounts/keys',
    expected: 'a tenth active key made after one of ten was revoked',
    received: 'refused',
    message: 'with nine keys active, a tenth could not be made: the revoked key still counts',
  });
  if (tenth === undefined) return;
  ctx.expectTrue(await works(ctx, tenth), {
    code: 'STATE',
    pointer: '/keys',
    expected: 'the tenth active key gets a token that serves a call',
    received: 'it does not',
    message: 'a tenth key made after a revoke does not work',
  });
});
