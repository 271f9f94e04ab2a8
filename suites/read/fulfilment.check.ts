import type { CheckContext } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { InvoiceSchema } from '../schemas/invoice.js';
import { listOf } from '../schemas/list.js';
import { ShipmentSchema } from '../schemas/shipment.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { orderBody } from '../support/order-body.js';
import { type Ordering, ordering } from '../support/ordering.js';

async function placed(ctx: CheckContext): Promise<Ordering & { id: string }> {
  const setup = await ordering(ctx);
  const res = await ctx.postOrder(setup.key, orderBody(ctx, setup.catalog));
  return { ...setup, id: idOf(requireSuccess(res, 'placing the order'), 'placing the order') };
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-16', async (ctx) => {
  // Section 4: "GET | shipments of an order | orders:read | Read shipments."
  const { key, id } = await placed(ctx);
  const res = await ctx.api(key).get(ctx.path('shipments', { id }));
  if (ctx.expectStatus(res, 200)) {
    ctx.expectTrue(Array.isArray((res.json as { data?: unknown } | undefined)?.data), {
      code: 'SCHEMA',
      pointer: '/body/data',
      expected: 'a list of shipments',
      received: res.text.slice(0, 200),
      message: 'the shipments of an order are not a list',
      exchange: res.exchange,
    });
  }
});

check('READ-17', async (ctx) => {
  // Contract section 2: GET /orders/{id}/shipments is a list; contract section 3: ship gives the order one shipment, status shipped.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const before = await ctx.api(key).get(ctx.path('shipments', { id }));
  ctx.expectEqual(
    '/body/data',
    [],
    (before.json as { data?: unknown } | undefined)?.data,
    'an order not shipped has no shipment',
  );
  await ctx.control.ship(account.id, id);
  const after = await ctx.api(key).get(ctx.path('shipments', { id }));
  const list = ctx.expectShape(after.json, listOf(ShipmentSchema), '/body', after.exchange);
  ctx.expectEqual('/body/data/length', 1, list?.data.length, 'a shipped order has one shipment');
  const order = await ctx.api(key).get(ctx.path('order', { id }));
  ctx.expectEqual(
    '/body/status',
    'shipped',
    (order.json as { status?: unknown } | undefined)?.status,
    'a shipped order is in status shipped',
  );
});

check('READ-18', async (ctx) => {
  // Contract section 2: GET /orders/{id}/invoice answers 404 not_found until an invoice exists.
  const { key, id } = await placed(ctx);
  ctx.expectProblem(await ctx.api(key).get(ctx.path('invoice', { id })), {
    status: 404,
    code: 'not_found',
  });
});

check('READ-19', async (ctx) => {
  // Section 4: "GET | invoice of an order | orders:read | Read the invoice." Contract section 3: shipping makes it.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await ctx.control.ship(account.id, id);
  const res = await ctx.api(key).get(ctx.path('invoice', { id }));
  if (ctx.expectStatus(res, 200)) ctx.expectShape(res.json, InvoiceSchema, '/body', res.exchange);
});
