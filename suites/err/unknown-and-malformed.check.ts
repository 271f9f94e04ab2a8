import { randomBytes } from 'node:crypto';
import { check, checksUseOwnAccounts, newIdempotencyKey } from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';

checksUseOwnAccounts();

// Section 7 (404 not_found: no such object), HTTP practice: a path the API does not have is not found.
check('ERR-11', async (ctx) => {
  const api = ctx.api(await ctx.key());
  const nonce = randomBytes(4).toString('hex');
  const paths = [
    `/no-such-resource-${nonce}`,
    `/orders-${nonce}`,
    `${ctx.path('account')}/${nonce}`,
  ];
  for (const res of await allAtOnce(paths, (path) => api.get(path))) {
    ctx.expectProblem(res, { status: 404, code: 'not_found' });
  }
});

// Contract "Readings": malformed JSON gets 422 validation_failed in the reference.
check('ERR-12', async (ctx) => {
  const api = ctx.api(await ctx.key({ mode: 'test' }));
  const json = { 'content-type': 'application/json' };
  // Three malformed quotes and a malformed order, at once, judged in order.
  const bodies = ['{"items": [', '{"external_id": "x",}', "{'external_id': 'x'}"];
  const [quotes, order] = await together(
    allAtOnce(bodies, (body) =>
      api.send({ method: 'POST', path: ctx.path('quotes'), body, headers: json }),
    ),
    api.send({
      method: 'POST',
      path: ctx.path('orders'),
      body: '{"external_id": ',
      headers: { ...json, 'idempotency-key': newIdempotencyKey() },
    }),
  );
  for (const res of quotes) ctx.expectProblem(res, { status: 422, code: 'validation_failed' });
  ctx.expectProblem(order, { status: 422, code: 'validation_failed' });
});
