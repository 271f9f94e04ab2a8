import { check, newIdempotencyKey, orderBody, requireId } from '../../lib/check/index.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { ordering } from '../support/ordering.js';
import {
  ACCEPTED,
  accepted,
  answersLine,
  inRounds,
  RACE_ROUNDS,
  RACERS,
} from '../support/race-rounds.js';

check('IDEM-10', async (ctx) => {
  // Section 4, idempotency rule 2, as the contract reads it: while a request is processed an
  // identical one may wait and replay or get 409 idempotency_conflict; exactly one order either way.
  const { key, catalog } = await ordering(ctx);
  await inRounds(RACE_ROUNDS, async (round) => {
    const body = orderBody(ctx, catalog);
    // The same request with the same key, held at its last byte by every racer and released at once.
    const request = ctx.orderRequest(key, body, { idempotencyKey: newIdempotencyKey() });
    const answers = await ctx.raceRequests(Array.from({ length: RACERS }, () => request));
    ctx.note(`round ${round}: ${answersLine(answers)}`);
    let held = true;
    const ids = new Set<string>();
    for (const res of answers) {
      if (accepted(res)) {
        ids.add(
          requireId(ctx.dialect, 'order', res.json, 'a racing request answered', res.exchange),
        );
      } else if (!ctx.expectProblem(res, { status: 409, code: 'idempotency_conflict' }, ACCEPTED)) {
        held = false;
      }
    }
    const one = ctx.expectTrue(ids.size === 1, {
      code: 'STATE',
      pointer: '/body/id',
      expected: 'one order id across all successful answers',
      received: [...ids],
      message: `round ${round}: ${RACERS} identical racing requests answered ${ids.size} different orders`,
      // The same judgement as data over the racers' answers: a reproduction sends them together
      // again and counts the orders they name.
      exchanges: answers.map((res) => res.exchange),
      must: { distinct: `/body${ctx.dialect.answers.order.id}`, among: ACCEPTED, min: 1, max: 1 },
    });
    const [id] = ids;
    const single =
      id === undefined ||
      (await expectSingleOrder(ctx, key, body.external_id, id, `racing requests (round ${round})`));
    return held && one && single;
  });
});
