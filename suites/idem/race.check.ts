import { check, newIdempotencyKey, orderBody, requireId } from '../../lib/check/index.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { ordering } from '../support/ordering.js';
import { problemCode } from '../support/problem-text.js';

/** How many identical requests race. Five fits the write limit of a partner key with room to spare. */
const RACERS = 5;

check('IDEM-10', async (ctx) => {
  // Section 4, idempotency rule 2, as the contract reads it: while a request is processed an
  // identical one may wait and replay or get 409 idempotency_conflict; exactly one order either way.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  await ctx.token(key); // one token for all racers, so they leave together
  // One open connection per racer, so that they also arrive together: racers that first had to
  // connect reached a fast target one by one, each after the last had finished (no race at all).
  await Promise.all(Array.from({ length: RACERS }, () => ctx.api(key).get(ctx.path('account'))));
  const answers = await Promise.all(
    Array.from({ length: RACERS }, () => ctx.postOrder(key, body, { idempotencyKey })),
  );
  const ids = new Set<string>();
  for (const res of answers) {
    if (res.status >= 200 && res.status < 300) {
      ids.add(requireId(ctx.dialect, 'order', res.json, 'a racing request answered', res.exchange));
      continue;
    }
    ctx.expectProblem(res, { status: 409, code: 'idempotency_conflict' });
  }
  const success = { at: '/status', is: { between: [200, 299] as [number, number] } };
  ctx.expectTrue(ids.size === 1, {
    code: 'STATE',
    pointer: '/body/id',
    expected: 'one order id across all successful answers',
    received: [...ids],
    message: `${RACERS} identical racing requests answered ${ids.size} different orders`,
    // The same judgement as data over the racers' answers: a reproduction sends them together
    // again and counts the orders they name.
    exchanges: answers.map((res) => res.exchange),
    must: { distinct: `/body${ctx.dialect.answers.order.id}`, among: success, min: 1, max: 1 },
  });
  const [id] = ids;
  if (id !== undefined) await expectSingleOrder(ctx, key, body.external_id, id, 'racing requests');
  ctx.note(
    `answers: ${answers.map((r) => `${r.status}${problemCode(r) ? ` ${problemCode(r)}` : ''}`).join(', ')}`,
  );
});
