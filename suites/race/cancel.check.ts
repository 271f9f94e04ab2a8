import { check, checksUseOwnAccounts, orderBody, valueAt } from '../../lib/check/index.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import {
  ACCEPTED,
  accepted,
  answersLine,
  expectRefusedAs,
  inRounds,
  RACE_ROUNDS,
  RACERS,
} from '../support/race-rounds.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

// Section 3, order cancellation: a cancellable order is cancelled; one "already cancelled" gets
// 409 not_cancellable. Cancels of one order racing: exactly one cancels it, every other finds it
// cancelled, and the order ends cancelled.
check('RACE-02', async (ctx) => {
  const { key, catalog } = await ordering(ctx);
  await inRounds(RACE_ROUNDS, async (round) => {
    const placed = requireSuccess(
      await ctx.postOrder(key, orderBody(ctx, catalog)),
      'placing the order to cancel',
    );
    const id = idOf(ctx, placed, 'placing the order to cancel');
    const cancel = {
      method: 'POST',
      path: ctx.path('orderCancel', { id }),
      auth: { kind: 'key', key },
    } as const;
    const answers = await ctx.raceRequests(Array.from({ length: RACERS }, () => cancel));
    ctx.note(`round ${round}: ${answersLine(answers)}`);
    const cancelled = answers.filter(accepted);
    const one = ctx.expectTrue(cancelled.length === 1, {
      code: 'STATE',
      pointer: '/status',
      expected: `one of ${RACERS} racing cancels of one order succeeds`,
      received: `${cancelled.length} succeeded: ${answersLine(answers)}`,
      message: `round ${round}: ${cancelled.length} of ${RACERS} racing cancels of order ${id} succeeded`,
      ...(cancelled[1] ? { exchange: cancelled[1].exchange } : {}),
      // As data over the racers' answers: a reproduction races them again and counts the cancels.
      exchanges: answers.map((res) => res.exchange),
      must: { count: ACCEPTED, min: 1, max: 1 },
    });
    const refused = expectRefusedAs(ctx, answers, { status: 409, code: 'not_cancellable' });
    const read = await ctx.api(key).get(ctx.path('order', { id }));
    const status = ctx.dialect.answers.order.status;
    const ended = ctx.expectEqual(
      `/body${status}`,
      ctx.dialect.orderStatuses.cancelled,
      valueAt(read.json, status),
      `round ${round}: the order is cancelled after the racing cancels`,
    );
    return one && refused && ended;
  });
});
