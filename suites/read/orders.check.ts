import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { IdListSchema } from '../schemas/list.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { orderBody } from '../support/order-body.js';
import { orderIdsWithExternalId } from '../support/order-count.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-12', async (ctx) => {
  // Section 4: "GET /orders | orders:read | List orders."
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const id = idOf(
    requireSuccess(await ctx.postOrder(key, body), 'placing the order'),
    'placing the order',
  );
  const first = await ctx.api(key).get(ctx.path('orders'));
  if (!ctx.expectStatus(first, 200)) return;
  const listed = await orderIdsWithExternalId(ctx, key, body.external_id);
  if (listed === undefined) {
    ctx.note('the list could not be walked to its end (dialect paging): only its status is judged');
    return;
  }
  ctx.expectEqual('/body/data', [id], listed, 'the order placed is in the order list, once');
});

check('READ-13', async (ctx) => {
  // Contract section 2: lists are {data, has_more}, with `limit` and `starting_after` (an id).
  const { key, account, catalog } = await ordering(ctx);
  const placed: string[] = [];
  const count = account ? 5 : 3;
  for (let n = 0; n < count; n++) {
    placed.push(
      idOf(
        requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing an order'),
        'placing an order',
      ),
    );
  }
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 60; page++) {
    const res = await ctx.api(key).get(ctx.path('orders'), {
      limit: '2',
      ...(after ? { starting_after: after } : {}),
    });
    if (!ctx.expectStatus(res, 200)) return;
    const list = ctx.expectShape(res.json, IdListSchema, '/body', res.exchange);
    if (!list) return;
    ctx.expectTrue(list.data.length <= 2, {
      code: 'VALUE',
      pointer: '/body/data',
      expected: 'at most 2 entries (limit=2)',
      received: list.data.length,
      message: 'a page holds more entries than limit',
      exchange: res.exchange,
    });
    seen.push(...list.data.map((o) => o.id));
    if (!list.has_more) break;
    ctx.expectTrue(list.data.length > 0, {
      code: 'VALUE',
      pointer: '/body/has_more',
      expected: false,
      received: true,
      message: 'an empty page says has_more',
      exchange: res.exchange,
    });
    after = list.data.at(-1)?.id;
    if (!account && placed.every((id) => seen.includes(id))) break;
  }
  const twice = seen.filter((id, i) => seen.indexOf(id) !== i);
  ctx.expectEqual('/body/data', [], twice, 'no order appears on two pages');
  if (account) {
    ctx.expectEqual(
      '/body/data',
      [...placed].sort(),
      [...seen].sort(),
      'paging through the list shows every order exactly once',
    );
  } else {
    ctx.expectEqual(
      '/body/data',
      [],
      placed.filter((id) => !seen.includes(id)),
      'paging shows every order placed',
    );
  }
});

check('READ-14', async (ctx) => {
  // Contract section 2: `limit` is 1..100; bad query parameters get 422 validation_failed (contract readings).
  const { key } = await ordering(ctx);
  for (const limit of ['0', '101']) {
    const res = await ctx.api(key).get(ctx.path('orders'), { limit });
    ctx.expectProblem(res, { status: 422, code: 'validation_failed' });
  }
});

check('READ-15', async (ctx) => {
  // Section 4: "GET /orders/{id} | orders:read | Read an order."
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const id = idOf(
    requireSuccess(await ctx.postOrder(key, body), 'placing the order'),
    'placing the order',
  );
  const res = await ctx.api(key).get(ctx.path('order', { id }));
  if (!ctx.expectStatus(res, 200)) return;
  const order = res.json as { id?: unknown; external_id?: unknown } | undefined;
  ctx.expectEqual('/body/id', id, order?.id, 'GET /orders/{id} reads the order');
  ctx.expectEqual(
    '/body/external_id',
    body.external_id,
    order?.external_id,
    'the order read has its external_id',
  );
});
