import { check, checksUseOwnAccounts, goodsTotal } from '../../lib/check/index.js';
import { OrderSchema } from '../schemas/order.js';
import { requireSuccess } from '../support/expect-success.js';
import { orderBody } from '../support/order-body.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-22', async (ctx) => {
  // Section 4: "Status code of a first successful creation: not shown"; contract section 2: 201 with the order.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body);
  ctx.expectStatus(res, ctx.dialect.orderCreatedStatus);
  ctx.expectEqual(
    '/body/external_id',
    body.external_id,
    (res.json as { external_id?: unknown } | undefined)?.external_id,
    'the creation answers the order',
  );
});

check('ORDER-23', async (ctx) => {
  // Section 2: order fields not shown beyond external_id and id; contract section 2 gives the order's shape.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body);
  const placed = requireSuccess(res, 'placing the order');
  const order = ctx.expectShape(placed, OrderSchema, '/body', res.exchange);
  if (!order) return;
  ctx.expectEqual('/body/status', 'received', order.status, 'a new order is received');
  ctx.expectEqual(
    '/body/livemode',
    key.mode === 'live',
    order.livemode,
    'livemode is the mode of the key',
  );
  ctx.expectEqual(
    '/body/items',
    body.items,
    order.items.map(({ sku, quantity }) => ({ sku, quantity })),
    'the order holds the items sent',
  );
  ctx.expectEqual(
    '/body/shipping_address',
    body.shipping_address,
    order.shipping_address,
    'the order holds the address sent',
  );
  const created = Date.parse(order.created_at);
  const until = Date.parse(order.cancellable_until);
  ctx.expectEqual(
    '/body/cancellable_until',
    24 * 3600 * 1000,
    until - created,
    'cancellable_until is 24 hours after created_at (section 3)',
  );
});

check('ORDER-24', async (ctx) => {
  // Contract section 2: money in integer cents, USD; the reference charges no shipping, so the total is the sum of the lines.
  const { key, catalog } = await ordering(ctx);
  const lines = catalog.products
    .filter((p) => !p.ships_by_freight)
    .slice(0, 3)
    .map((p) => ({ sku: p.sku, quantity: p.min_quantity + 2 }));
  const body = orderBody(ctx, catalog, { items: lines });
  const res = await ctx.postOrder(key, body);
  const placed = requireSuccess(res, 'placing the order');
  ctx.expectEqual(
    '/body/total',
    { amount: goodsTotal(catalog.products, lines), currency: 'USD' },
    placed.total,
    'the total is the sum of unit price times quantity',
  );
});
