import type { CheckContext, Key } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  idIn,
  orderBody,
  valueAt,
  walkList,
} from '../../lib/check/index.js';
import { eventSchema } from '../schemas/event.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { endpointDialectGap } from '../support/webhook-endpoints.js';

/**
 * The newest events, a few pages deep, looking for one of this kind about
 * order `orderId`. Event payloads are not shown (section 6): an event is
 * about the order when it holds its id anywhere.
 */
async function findEvent(
  ctx: CheckContext,
  key: Key,
  kind: string,
  orderId: string,
): Promise<{ event: unknown; id: string } | undefined> {
  let found: { event: unknown; id: string } | undefined;
  const list = { operation: 'eventList', path: ctx.path('events'), kind: 'event' } as const;
  const walk = await walkList(
    ctx.api(key),
    ctx.dialect,
    list,
    (items, res) => {
      const event = items.find(
        (e) =>
          valueAt(e, ctx.dialect.answers.event.type) === kind &&
          JSON.stringify(e).includes(JSON.stringify(orderId)),
      );
      if (event === undefined) return false;
      ctx.expectShape(
        event,
        eventSchema(ctx.dialect),
        `/body${ctx.dialect.list.items}`,
        res.exchange,
      );
      const id = idIn(ctx.dialect, 'event', event);
      if (id !== undefined) found = { event, id };
      return true;
    },
    { maxPages: 5 },
  );
  if (walk.end === 'refused') ctx.expectStatus(walk.res, ctx.dialect.operations.eventList.status);
  return found;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-20', async (ctx) => {
  // Section 6: "Events are read under /events … need the scope webhooks:manage."
  const { account } = await ordering(ctx);
  const key = await ctx.key({ scopes: ['webhooks:manage'], ...(account ? { account } : {}) });
  const res = await ctx
    .api(key)
    .send({ method: ctx.dialect.operations.eventList.method, path: ctx.path('events') });
  // The method of the event list is not shown (section 6): a 404/405 to the profile's says only that.
  const gap = endpointDialectGap(ctx, res, 'eventList', 'listing events');
  if (gap) throw gap;
  ctx.expectStatus(res, ctx.dialect.operations.eventList.status);
});

check('READ-21', async (ctx) => {
  // Section 6: event kinds "not shown"; contract section 2: types include order.created, event {id, type, created_at, livemode, data: {object}}.
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  const kind = ctx.dialect.eventKinds.orderCreated;
  const found = await findEvent(ctx, key, kind, id);
  if (
    !ctx.expectTrue(found !== undefined, {
      code: 'STATE',
      pointer: '/events',
      expected: `an ${kind} event for ${id}`,
      received: null,
      message: `placing an order recorded no ${kind} event`,
    }) ||
    found === undefined
  )
    return;
  const res = await ctx.api(key).send({
    method: ctx.dialect.operations.eventRead.method,
    path: ctx.path('event', { id: found.id }),
  });
  if (ctx.expectStatus(res, ctx.dialect.operations.eventRead.status)) {
    ctx.expectEqual(
      `/body${ctx.dialect.answers.event.id}`,
      found.id,
      idIn(ctx.dialect, 'event', res.json),
      'the event read is the one listed',
    );
  }
});

check('READ-22', async (ctx) => {
  // Contract section 2: event types include order.cancelled.
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  requireSuccess(await ctx.api(key).post(ctx.path('orderCancel', { id })), 'cancelling the order');
  const kind = ctx.dialect.eventKinds.orderCancelled;
  const found = await findEvent(ctx, key, kind, id);
  ctx.expectTrue(found !== undefined, {
    code: 'STATE',
    pointer: '/events',
    expected: `an ${kind} event for ${id}`,
    received: null,
    message: `cancelling an order recorded no ${kind} event`,
  });
});
