import type { Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { ACCEPTED, inRounds, RACE_ROUNDS } from '../support/race-rounds.js';
import { requestToken } from '../support/token-request.js';

/** Section 3 and section 8: "Up to 10 keys may be active at once." */
const ACTIVE_KEYS = 10;
/** Places left free for the race. */
const FREE = 2;

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

// Section 3 ("Up to 10 keys may be active at once") and section 8 ("Active keys | 10"), observed
// through the control protocol, the only way a test makes keys (contract section 3: "the usual
// 10-active-keys limit holds"): an account with eight keys, four creations racing for the last two
// places; then every key of the account asks for a token, and at most ten get one.
check('RACE-06', async (ctx) => {
  await inRounds(RACE_ROUNDS, async (round) => {
    const account = await ctx.newAccount();
    const before = await Promise.all(
      Array.from({ length: ACTIVE_KEYS - FREE }, () => ctx.key({ account })),
    );
    const racing = await ctx.race(
      Array.from({ length: FREE + 2 }, () => async (racer) => {
        try {
          return await racer.control.createKey(account.id);
        } catch {
          // Refused: the control API answered no key (its code is the contract's to leave open).
          return undefined;
        }
      }),
    );
    const made = racing.filter((key): key is Key => key !== undefined);
    // Keys made in the race are the check's to revoke as it ends, like the ones `key()` makes.
    for (const key of made) ctx.onCleanup(() => ctx.control.revokeKey(key));
    ctx.note(`round ${round}: ${made.length} of ${FREE + 2} racing key creations answered a key`);
    const keys = [...before, ...made];
    const tokens = await allAtOnce(keys, (key) => requestToken(ctx, key));
    const working = tokens.filter((res) => res.status >= 200 && res.status < 300);
    const beyond = working[ACTIVE_KEYS];
    return ctx.expectTrue(beyond === undefined, {
      code: 'STATE',
      pointer: '/control/accounts/keys',
      expected: `at most ${ACTIVE_KEYS} keys of the account active at once`,
      received: `${working.length} of its ${keys.length} keys got a token`,
      message: `round ${round}: key creations racing for the last ${FREE} places left ${working.length} active keys`,
      ...(beyond ? { exchange: beyond.exchange } : {}),
      // As data over the token answers: a reproduction counts the keys that got a token.
      exchanges: tokens.map((res) => res.exchange),
      must: { count: ACCEPTED, max: ACTIVE_KEYS },
    });
  });
});
