import type { CheckContext, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { type ApiEvent, EventSchema } from '../schemas/event.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { orderBody } from '../support/order-body.js';
import { ordering } from '../support/ordering.js';

/** The newest events, a few pages deep, looking for one of `type` about order `orderId`. */
async function findEvent(
  ctx: CheckContext,
  key: Key,
  type: string,
  orderId: string,
): Promise<ApiEvent | undefined> {
  let after: string | undefined;
  for (let page = 0; page < 5; page++) {
    const res = await ctx.api(key).get(ctx.path('events'), {
      limit: '100',
      ...(after ? { starting_after: after } : {}),
    });
    if (!ctx.expectStatus(res, 200)) return undefined;
    const data = (res.json as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data)) return undefined;
    const found = data.find((e) => e?.type === type && e?.data?.object?.id === orderId);
    if (found) return ctx.expectShape(found, EventSchema, '/body/data', res.exchange);
    if ((res.json as { has_more?: unknown }).has_more !== true) return undefined;
    after = (data.at(-1) as { id?: string } | undefined)?.id;
  }
  return undefined;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-20', async (ctx) => {
  // Section 6: "Events are read under /events … need the scope webhooks:manage."
  const { account } = await ordering(ctx);
  const key = await ctx.key({ scopes: ['webhooks:manage'], ...(account ? { account } : {}) });
  ctx.expectStatus(await ctx.api(key).get(ctx.path('events')), 200);
});

check('READ-21', async (ctx) => {
  // Section 6: event kinds "not shown"; contract section 2: types include order.created, event {id, type, created_at, livemode, data: {object}}.
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  const event = await findEvent(ctx, key, 'order.created', id);
  if (
    !ctx.expectTrue(event !== undefined, {
      code: 'STATE',
      pointer: '/events',
      expected: `an order.created event for ${id}`,
      received: null,
      message: 'placing an order recorded no order.created event',
    })
  )
    return;
  const res = await ctx.api(key).get(ctx.path('event', { id: (event as ApiEvent).id }));
  if (ctx.expectStatus(res, 200)) {
    ctx.expectEqual(
      '/body/id',
      (event as ApiEvent).id,
      (res.json as { id?: unknown }).id,
      'GET /events/{id} reads the event',
    );
  }
});

check('READ-22', async (ctx) => {
  // Contract section 2: event types include order.cancelled.
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  requireSuccess(await ctx.api(key).post(ctx.path('orderCancel', { id })), 'cancelling the order');
  const event = await findEvent(ctx, key, 'order.cancelled', id);
  ctx.expectTrue(event !== undefined, {
    code: 'STATE',
    pointer: '/events',
    expected: `an order.cancelled event for ${id}`,
    received: null,
    message: 'cancelling an order recorded no order.cancelled event',
  });
});
