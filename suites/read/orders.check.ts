import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { HttpResponse } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  externalIdIn,
  idIn,
  itemIdOf,
  listPage,
  orderBody,
  pageQuery,
  requireId,
} from '../../lib/check/index.js';
import { objectAt } from '../schemas/at-pointers.js';
import { listOf } from '../schemas/list.js';
import { allAtOnce } from '../support/all-at-once.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { orderIdsWithExternalId } from '../support/order-count.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-12', async (ctx) => {
  // Section 4: "GET /orders | orders:read | List orders."
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body), 'placing the order'),
    'placing the order',
  );
  const first = await ctx.api(key).get(ctx.path('orders'));
  if (!ctx.expectStatus(first, ctx.dialect.operations.orderList.status)) return;
  // The envelope is the profile's: one not where it says ends the check not verifiable, naming it.
  listPage(ctx.dialect, first.json, itemIdOf(ctx.dialect, 'order'), first.exchange);
  const pages: HttpResponse[] = [];
  const listed = await orderIdsWithExternalId(ctx, key, body.external_id, 20, pages);
  if (listed === undefined) {
    ctx.note('the list could not be walked to its end (dialect paging): only its status is judged');
    return;
  }
  const items = `/body${ctx.dialect.list.items}`;
  ctx.expectTrue(isDeepStrictEqual(listed, [id]), {
    code: 'VALUE',
    pointer: items,
    expected: [id],
    received: listed,
    message: 'the order placed is in the order list, once',
    // As data over the pages read: exactly one of them lists it.
    exchanges: pages.map((page) => page.exchange),
    must: {
      count: {
        at: items,
        is: { hasItem: { at: ctx.dialect.answers.order.id, is: { equals: id } } },
      },
      min: 1,
      max: 1,
    },
  });
});

check('READ-13', async (ctx) => {
  // Contract section 2: lists are {data, has_more}, with `limit` and `starting_after` (an id); a profile gives its own envelope.
  const { key, account, catalog } = await ordering(ctx);
  const placed: string[] = [];
  const count = account ? 5 : 3;
  for (let n = 0; n < count; n++) {
    placed.push(
      idOf(
        ctx,
        requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing an order'),
        'placing an order',
      ),
    );
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  const { list } = ctx.dialect;
  const items = `/body${list.items}`;
  const schema = listOf(ctx.dialect, objectAt([[ctx.dialect.answers.order.id, z.string().min(1)]]));
  for (let page = 0; page < 60; page++) {
    const res = await ctx
      .api(key)
      .get(ctx.path('orders'), pageQuery(ctx.dialect, { limit: 2, cursor }));
    if (!ctx.expectStatus(res, ctx.dialect.operations.orderList.status)) return;
    if (ctx.expectShape(res.json, schema, '/body', res.exchange) === undefined) return;
    const {
      items: data,
      more,
      cursor: next,
    } = listPage(ctx.dialect, res.json, itemIdOf(ctx.dialect, 'order'), res.exchange);
    ctx.expectTrue(data.length <= 2, {
      code: 'VALUE',
      pointer: items,
      expected: `at most 2 entries (${list.limitParam}=2)`,
      received: data.length,
      message: 'a page holds more entries than the page size asked',
      exchange: res.exchange,
    });
    seen.push(...data.flatMap((o) => idIn(ctx.dialect, 'order', o) ?? []));
    if (!more) break;
    ctx.expectTrue(data.length > 0, {
      code: 'VALUE',
      pointer: `/body${list.hasMore ?? list.nextCursor}`,
      expected: 'the last page',
      received: 'more pages',
      message: 'an empty page says more pages follow',
      exchange: res.exchange,
    });
    if (next === undefined)
      return ctx.stop({
        code: 'VALUE',
        pointer: `/body${list.nextCursor ?? list.items}`,
        expected: 'a cursor for the next page',
        received: '(none)',
        message: 'a page says more follow but gives no cursor',
        exchange: res.exchange,
      });
    cursor = next;
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
  const { limitParam, maxLimit } = ctx.dialect.list;
  for (const limit of ['0', String(maxLimit + 1)]) {
    const res = await ctx.api(key).get(ctx.path('orders'), { [limitParam]: limit });
    ctx.expectProblem(res, { status: 422, code: 'validation_failed' });
  }
});

check('READ-15', async (ctx) => {
  // Section 4: "GET /orders/{id} | orders:read | Read an order."
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body), 'placing the order'),
    'placing the order',
  );
  const res = await ctx.api(key).get(ctx.path('order', { id }));
  if (!ctx.expectStatus(res, ctx.dialect.operations.orderRead.status)) return;
  const shown = requireId(ctx.dialect, 'order', res.json, 'the order read', res.exchange);
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.id}`,
    id,
    shown,
    'GET /orders/{id} reads the order',
  );
  ctx.expectEqual(
    '/body/external_id',
    body.external_id,
    externalIdIn(res.json),
    'the order read has its external_id',
    res,
  );
});

/** The reference dialect's page size when a list is read with no limit (contract section 2). */
const DEFAULT_PAGE = 20;

check('READ-25', async (ctx) => {
  // Contract section 2: "query limit (1..100, default 20)". One order more than a default page, in
  // an account of the check's own (a partner sandbox's list may hold any number already).
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const bodies = Array.from({ length: DEFAULT_PAGE + 1 }, () => orderBody(ctx, catalog));
  await allAtOnce(bodies, async (body) =>
    requireSuccess(await ctx.postOrder(key, body), 'placing an order'),
  );
  const res = await ctx.api(key).get(ctx.path('orders'));
  if (!ctx.expectStatus(res, ctx.dialect.operations.orderList.status)) return;
  const { items, more } = listPage(
    ctx.dialect,
    res.json,
    itemIdOf(ctx.dialect, 'order'),
    res.exchange,
  );
  ctx.expectEqual(
    `/body${ctx.dialect.list.items}/length`,
    DEFAULT_PAGE,
    items.length,
    `${DEFAULT_PAGE + 1} orders read with no ${ctx.dialect.list.limitParam}: a page of the default size`,
  );
  ctx.expectTrue(more, {
    code: 'VALUE',
    pointer: `/body${ctx.dialect.list.hasMore ?? ctx.dialect.list.nextCursor ?? ''}`,
    expected: 'more entries follow (one order beyond the page)',
    received: more,
    message: 'the first page of a longer list says no more entries follow',
    exchange: res.exchange,
  });
});
