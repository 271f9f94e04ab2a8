import { randomBytes } from 'node:crypto';
import { check, checksUseOwnAccounts, newIdempotencyKey } from '../../lib/check/index.js';

checksUseOwnAccounts();

// Section 7 (404 not_found: no such object), HTTP practice: a path the API does not have is not found.
check('ERR-11', async (ctx) => {
  const api = ctx.api(await ctx.key());
  const nonce = randomBytes(4).toString('hex');
  for (const path of [
    `/no-such-resource-${nonce}`,
    `/orders-${nonce}`,
    `${ctx.path('account')}/${nonce}`,
  ]) {
    ctx.expectProblem(await api.get(path), { status: 404, code: 'not_found' });
  }
});

// Contract "Readings": malformed JSON gets 422 validation_failed in the reference.
check('ERR-12', async (ctx) => {
  const api = ctx.api(await ctx.key({ mode: 'test' }));
  const json = { 'content-type': 'application/json' };
  for (const body of ['{"items": [', '{"external_id": "x",}', "{'external_id': 'x'}"]) {
    ctx.expectProblem(
      await api.send({ method: 'POST', path: ctx.path('quotes'), body, headers: json }),
      {
        status: 422,
        code: 'validation_failed',
      },
    );
  }
  const order = await api.send({
    method: 'POST',
    path: ctx.path('orders'),
    body: '{"external_id": ',
    headers: { ...json, 'idempotency-key': newIdempotencyKey() },
  });
  ctx.expectProblem(order, { status: 422, code: 'validation_failed' });
});
