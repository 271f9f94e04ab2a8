import type { CheckContext, HttpResponse, Key, Racer } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { inRounds, RACE_ROUNDS } from '../support/race-rounds.js';
import { getAccountWith, issuedToken, tokenRequest } from '../support/token-request.js';

/** Token requests with the key's Secret Key racing the change, half of them before it, half after. */
const REQUESTS = 6;
/**
 * Rounds tried at most: a round where the target took the change before
 * every token request (all refused) shows nothing, so the check races until
 * `RACE_ROUNDS` rounds issued tokens to judge.
 */
const MOST_ROUNDS = 3 * RACE_ROUNDS;

/**
 * Token requests of a new key race a change of the key made through the
 * control protocol (a roll, a revoke): whichever the target took first, no
 * token they got may work once the change is answered (section 5, rule 3:
 * 401 invalid_token).
 */
async function tokensRacing(
  ctx: CheckContext,
  change: string,
  make: (racer: Racer, key: Key) => Promise<unknown>,
): Promise<void> {
  let judged = 0;
  await inRounds(MOST_ROUNDS, async (round) => {
    if (judged >= RACE_ROUNDS) return false;
    const key = await ctx.key();
    // The change's last byte goes out amid the token requests': a target reads them in about that
    // order, so some get a token just before the change, which must then stop them.
    const request = (racer: Racer) => racer.send(tokenRequest(ctx, key));
    const half = Array.from({ length: REQUESTS / 2 }, () => request);
    const outcomes = await ctx.race<unknown>([...half, (racer) => make(racer, key), ...half]);
    const tokens = outcomes.flatMap((outcome, n) => {
      const token = n === REQUESTS / 2 ? undefined : issuedToken(outcome as HttpResponse);
      return token === undefined ? [] : [token];
    });
    ctx.note(
      `round ${round}: ${tokens.length} of ${REQUESTS} token requests racing the ${change} got a token`,
    );
    if (tokens.length > 0) judged += 1;
    const calls = await allAtOnce(tokens, (token) => getAccountWith(ctx, token));
    let held = true;
    for (const res of calls) {
      if (!ctx.expectProblem(res, { status: 401, code: 'invalid_token' })) held = false;
    }
    return held;
  });
}

checksUseOwnAccounts();

// Section 3, API key: a roll gives the key a new Secret Key, and "the old Secret Key and every
// token made with it stop working at once", those requested while the roll was under way too.
check('RACE-10', (ctx) => tokensRacing(ctx, 'roll', (racer, key) => racer.control.rollKey(key)));

// Section 3, API key: a revoked key's "tokens stop working. Requests with them get invalid_token",
// those requested while the revoke was under way too.
check('RACE-11', (ctx) =>
  tokensRacing(ctx, 'revoke', (racer, key) => racer.control.revokeKey(key)),
);
