import type { Dialect } from '../../lib/check/index.js';
import {
  addressOf,
  check,
  checksUseOwnAccounts,
  goodsTotal,
  linesOf,
  moneyAt,
  moneyOf,
  orderBody,
  valueAt,
} from '../../lib/check/index.js';
import { orderSchema } from '../schemas/order.js';
import { requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-22', async (ctx) => {
  // Section 4: "Status code of a first successful creation: not shown"; contract section 2: 201 with the order.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body);
  ctx.expectStatus(res, ctx.dialect.operations.orderCreate.status);
  ctx.expectEqual(
    '/body/external_id',
    body.external_id,
    (res.json as { external_id?: unknown } | undefined)?.external_id,
    'the creation answers the order',
  );
});

check('ORDER-23', async (ctx) => {
  // Section 2: order fields not shown beyond external_id and id; contract section 2 gives the order's shape
  // (a profile moves its id, state, lines and total, and names its states).
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body);
  const placed = requireSuccess(res, 'placing the order');
  const at = ctx.dialect.answers.order;
  ctx.expectShape(placed, orderSchema(ctx.dialect), '/body', res.exchange);
  ctx.expectEqual(
    `/body${at.status}`,
    ctx.dialect.orderStatuses.received,
    valueAt(placed, at.status),
    'a new order is received',
  );
  ctx.expectEqual(
    '/body/livemode',
    key.mode === 'live',
    placed.livemode,
    'livemode is the mode of the key',
  );
  ctx.expectEqual(
    `/body${at.lines}`,
    linesOf(ctx.dialect.orderBody, body),
    answeredLines(ctx.dialect, placed),
    'the order holds the items sent',
  );
  // The answer shows the address where the body put it (the reference: shipping_address both ways).
  ctx.expectEqual(
    '/body/shipping_address',
    addressOf(ctx.dialect.orderBody, body),
    addressOf(ctx.dialect.orderBody, placed),
    'the order holds the address sent',
  );
  const created = Date.parse(String(placed.created_at));
  const until = Date.parse(String(placed.cancellable_until));
  ctx.expectEqual(
    '/body/cancellable_until',
    24 * 3600 * 1000,
    until - created,
    'cancellable_until is 24 hours after created_at (section 3)',
  );
});

/** The lines an order answer shows, read where the dialect says (`dialect.answers.order`). */
function answeredLines(dialect: Dialect, order: unknown): unknown {
  const at = dialect.answers.order;
  const lines = valueAt(order, at.lines);
  if (!Array.isArray(lines)) return lines ?? '(missing)';
  return lines.map((line) => ({
    sku: valueAt(line, at.lineSku),
    quantity: valueAt(line, at.lineQuantity),
  }));
}

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
  const total = ctx.dialect.totals.order;
  ctx.expectEqual(
    `/body${total}`,
    moneyOf(moneyAt(ctx.dialect.money, 'totals'), goodsTotal(catalog.products, lines)),
    valueAt(placed, total),
    'the total is the sum of unit price times quantity',
  );
});
