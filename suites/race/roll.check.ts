import type { HttpResponse, Key, Racer } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { inRounds, RACE_ROUNDS } from '../support/race-rounds.js';
import { getAccountWith, issuedToken, tokenRequest } from '../support/token-request.js';

/** Token requests with the old Secret Key racing the roll. */
const REQUESTS = 6;

checksUseOwnAccounts();

// Section 3, API key: a roll gives the key a new Secret Key, and "the old Secret Key and every
// token made with it stop working at once". Token requests with the old secret race the roll
// (control protocol, section 3): whichever came first, no token they got works once the roll is
// answered (section 5, rule 3: 401 invalid_token).
check('RACE-10', async (ctx) => {
  await inRounds(RACE_ROUNDS, async (round) => {
    const key = await ctx.key();
    const outcomes = await ctx.race<HttpResponse | Key>([
      (racer) => racer.control.rollKey(key),
      ...Array.from(
        { length: REQUESTS },
        () => (racer: Racer) => racer.send(tokenRequest(ctx, key)),
      ),
    ]);
    const tokens = outcomes.slice(1).flatMap((res) => {
      const token = issuedToken(res as HttpResponse);
      return token === undefined ? [] : [token];
    });
    ctx.note(
      `round ${round}: ${tokens.length} of ${REQUESTS} token requests racing the roll got a token`,
    );
    const calls = await allAtOnce(tokens, (token) => getAccountWith(ctx, token));
    let held = true;
    for (const res of calls) {
      if (!ctx.expectProblem(res, { status: 401, code: 'invalid_token' })) held = false;
    }
    return held;
  });
});
