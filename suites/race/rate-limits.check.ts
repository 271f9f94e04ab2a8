import type { CheckContext } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, WINDOW_SECONDS } from '../../lib/check/index.js';
import { burst } from '../rate/burst.js';
import { type LimitClass, READS, TOKENS, WRITES } from '../rate/limit-classes.js';
import { startOfAMinute } from '../rate/window.js';
import {
  ACCEPTED,
  accepted,
  answersLine,
  expectRefusedAs,
  inRounds,
  RACE_ROUNDS,
} from '../support/race-rounds.js';

/**
 * Places left free under the limit when the racers go (twice as many race
 * for them): enough that a target which lets every racer through is over the
 * limit by more than a refilling budget could give back while a round lasts
 * (a few seconds: a fifteenth of the limit, 20 of the 300 reads).
 */
function freePlaces(limit: LimitClass): number {
  return Math.max(5, Math.ceil(limit.perMinute / 15));
}

/** Requests of the spending part in flight at once: the quicker it goes, the less a budget refills. */
const SPENDING_CONCURRENCY = 32;

/**
 * Rounds of a race for the last places of a rate limit (section 8), each on
 * a new key at the start of a minute of the account clock: the key sends all
 * but a few of its minute's budget (`freePlaces`), then twice as many
 * requests race for the rest. Counting only accepted requests (contract section 2: whether refused
 * ones count is DIALECT), the key must not get more than its limit, allowing
 * for a limit that returns its budget bit by bit (a token bucket refills
 * `limit` a minute): `limit × seconds the round took / 60` more at most.
 */
async function raceTheLimit(ctx: CheckContext, limit: LimitClass): Promise<void> {
  const account = await ctx.account();
  const FREE = freePlaces(limit);
  await inRounds(RACE_ROUNDS, async (round) => {
    const key = await ctx.key({ account });
    const next = await limit.requests(ctx, key);
    await startOfAMinute(ctx, account);
    const started = performance.now();
    const spent = await burst(
      ctx,
      limit.perMinute - FREE,
      () => ctx.send(next()),
      SPENDING_CONCURRENCY,
    );
    const first = spent[0];
    if (first) limit.requireTaken?.(ctx, first, `a request of the ${limit.name}`);
    const answers = await ctx.raceRequests(Array.from({ length: 2 * FREE }, () => next()));
    const seconds = (performance.now() - started) / 1000;
    const allowance = Math.floor((limit.perMinute * seconds) / WINDOW_SECONDS);
    const spentTaken = spent.filter(accepted).length;
    const taken = spentTaken + answers.filter(accepted).length;
    ctx.note(
      `round ${round}: ${taken} of ${limit.perMinute + FREE} ${limit.name} accepted in ${seconds.toFixed(1)} s; racers: ${answersLine(answers)}`,
    );
    const within = ctx.expectTrue(taken <= limit.perMinute + allowance, {
      code: 'STATE',
      pointer: '/status',
      expected: `at most ${limit.perMinute} ${limit.name} of one key accepted in a minute${allowance > 0 ? ` (${allowance} more for the ${seconds.toFixed(1)} s the round took)` : ''}`,
      received: `${taken} accepted`,
      message: `round ${round}: ${2 * FREE} ${limit.name} racing for the last ${FREE} places of the minute took the key to ${taken}`,
      ...(answers.find(accepted) ? { exchange: answers.find(accepted)?.exchange as number } : {}),
      // As data over the racers' answers: what the spending left them (a reproduction counts them).
      exchanges: answers.map((res) => res.exchange),
      must: { count: ACCEPTED, max: limit.perMinute + allowance - spentTaken },
    });
    const refused = expectRefusedAs(ctx, answers, { status: 429, code: 'rate_limited' });
    return within && refused;
  });
}

// Each check on an account of its own, its clock its own: they may run side by side.
checksUseOwnAccounts();

// Section 5, rule 5: "At most 20 token requests a minute per key", raced.
check('RACE-07', (ctx) => raceTheLimit(ctx, TOKENS));

// Section 8: writes, 60 a minute per key, raced.
check('RACE-08', (ctx) => raceTheLimit(ctx, WRITES));

// Section 8: reads, 300 a minute per key, raced.
check('RACE-09', (ctx) => raceTheLimit(ctx, READS));
