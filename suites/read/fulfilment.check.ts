import { isDeepStrictEqual } from 'node:util';
import type { CheckContext, Condition } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  listPage,
  orderBody,
  valueAt,
} from '../../lib/check/index.js';
import { InvoiceSchema } from '../schemas/invoice.js';
import { listOf } from '../schemas/list.js';
import { ShipmentSchema } from '../schemas/shipment.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { requireServedSubresource } from '../support/order-subresource.js';
import { type Ordering, ordering } from '../support/ordering.js';

async function placed(ctx: CheckContext): Promise<Ordering & { id: string }> {
  const setup = await ordering(ctx);
  const res = await ctx.postOrder(setup.key, orderBody(ctx, setup.catalog));
  return { ...setup, id: idOf(ctx, requireSuccess(res, 'placing the order'), 'placing the order') };
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-16', async (ctx) => {
  // Section 4: "GET | shipments of an order | orders:read | Read shipments." The list envelope is the profile's.
  const { key, id } = await placed(ctx);
  const path = ctx.path('shipments', { id });
  const res = await ctx.api(key).get(path);
  await requireServedSubresource(ctx, key, path, res, 'shipments', 'GET shipments of an order');
  if (ctx.expectStatus(res, ctx.dialect.operations.shipments.status)) {
    // Shipments show no field the suite reads: a list page needs no item id unless it says more follow.
    listPage(
      ctx.dialect,
      res.json,
      { pointer: '/id', field: 'dialect.list.nextCursor' },
      res.exchange,
    );
  }
});

check('READ-17', async (ctx) => {
  // Contract section 2: GET /orders/{id}/shipments is a list; contract section 3: ship gives the order one shipment, status shipped.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const items = `/body${ctx.dialect.list.items}`;
  const schema = listOf(ctx.dialect, ShipmentSchema);
  const before = await ctx.api(key).get(ctx.path('shipments', { id }));
  ctx.expectEqual(
    items,
    [],
    valueAt(before.json, ctx.dialect.list.items),
    'an order not shipped has no shipment',
  );
  await ctx.control.ship(account.id, id);
  const after = await ctx.api(key).get(ctx.path('shipments', { id }));
  if (ctx.expectShape(after.json, schema, '/body', after.exchange) !== undefined) {
    const shipments = valueAt(after.json, ctx.dialect.list.items) as unknown[];
    ctx.expectEqual(`${items}/length`, 1, shipments.length, 'a shipped order has one shipment');
  }
  const order = await ctx.api(key).get(ctx.path('order', { id }));
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.status}`,
    ctx.dialect.orderStatuses.shipped,
    valueAt(order.json, ctx.dialect.answers.order.status),
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
  // Invoice fields are not shown (section 2): the answer is judged an object, its names are the target's.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await ctx.control.ship(account.id, id);
  const path = ctx.path('invoice', { id });
  const res = await ctx.api(key).get(path);
  // The invoice path is not shown: a 404 says "no invoice" only where the path is the target's.
  await requireServedSubresource(ctx, key, path, res, 'invoice', 'GET invoice of a shipped order');
  if (ctx.expectStatus(res, ctx.dialect.operations.invoice.status)) {
    ctx.expectShape(res.json, InvoiceSchema, '/body', res.exchange);
  }
});

check('READ-23', async (ctx) => {
  // Section 2: "Shipment, invoice | Read per order"; section 4: "GET | shipments of an order |
  // orders:read | Read shipments." Once the order is shipped (contract section 3: one shipment), its
  // shipments show it: a list that is always empty reads nothing. The shape is READ-17's.
  const { key, account, id } = await placed(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await ctx.control.ship(account.id, id);
  const path = ctx.path('shipments', { id });
  const res = await ctx.api(key).get(path);
  await requireServedSubresource(
    ctx,
    key,
    path,
    res,
    'shipments',
    'GET shipments of a shipped order',
  );
  if (!ctx.expectStatus(res, ctx.dialect.operations.shipments.status)) return;
  const { items } = listPage(
    ctx.dialect,
    res.json,
    { pointer: '/id', field: 'dialect.list.nextCursor' },
    res.exchange,
  );
  ctx.expectTrue(items.length > 0, {
    code: 'STATE',
    pointer: `/body${ctx.dialect.list.items}`,
    expected: 'the shipment of the shipped order',
    received: items,
    message: 'a shipped order shows no shipment',
    exchange: res.exchange,
  });
});

check('READ-24', async (ctx) => {
  // Section 2: "Shipment, invoice | Read per order." Two orders of one account, one shipped: the
  // other order's shipments and invoice are its own, so they never show the shipped order's. An
  // unshipped order may list nothing or what its dialect shows before shipping (not shown), but not
  // the very shipment or invoice of another order. Read in turn, the shipped order's first.
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const [shipped, waiting] = await Promise.all(
    [orderBody(ctx, catalog), orderBody(ctx, catalog)].map(async (body) => {
      const res = await ctx.postOrder(key, body);
      return idOf(ctx, requireSuccess(res, 'placing an order'), 'placing an order');
    }),
  );
  if (shipped === undefined || waiting === undefined) return;
  await ctx.control.ship(account.id, shipped);
  const client = ctx.api(key);
  const shipments = await client.get(ctx.path('shipments', { id: shipped }));
  await requireServedSubresource(
    ctx,
    key,
    ctx.path('shipments', { id: shipped }),
    shipments,
    'shipments',
    'GET shipments of a shipped order',
  );
  const its = listed(ctx, shipments.json);
  const other = await client.get(ctx.path('shipments', { id: waiting }));
  if (ctx.expectStatus(other, ctx.dialect.operations.shipments.status)) {
    const borrowed = listed(ctx, other.json).filter((item) =>
      its.some((own) => isDeepStrictEqual(own, item)),
    );
    ctx.expectTrue(borrowed.length === 0, {
      code: 'STATE',
      pointer: `/body${ctx.dialect.list.items}`,
      expected: 'no shipment of another order (the order is not shipped)',
      received: borrowed,
      message: "an order that is not shipped lists another order's shipment",
      exchange: other.exchange,
      ...mustNotList(ctx, its),
    });
  }
  const invoice = await client.get(ctx.path('invoice', { id: shipped }));
  const otherInvoice = await client.get(ctx.path('invoice', { id: waiting }));
  if (invoice.status >= 300 || otherInvoice.status >= 300) return;
  ctx.expectTrue(!isDeepStrictEqual(invoice.json, otherInvoice.json), {
    code: 'STATE',
    pointer: '/body',
    expected: "the order's own invoice, or none (the order is not shipped)",
    received: otherInvoice.json,
    message: "an order that is not shipped shows the shipped order's invoice",
    exchange: otherInvoice.exchange,
    // As data, by the invoice's id where it shows one (its other fields a replay makes anew).
    ...(typeof idField(invoice.json) === 'string'
      ? { must: { not: { at: '/body/id', is: { equals: idField(invoice.json) } } } }
      : {}),
  });
});

/** An object's `id` member, when it has one. */
function idField(value: unknown): unknown {
  return value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
}

/**
 * The judgement "lists none of `its`" as data, by the items' ids where they
 * show one (a shipment's shape is not shown; its other fields a replay makes
 * anew): for a reproduction, which learns those ids again.
 */
function mustNotList(ctx: CheckContext, its: readonly unknown[]): { must?: Condition } {
  const ids = its.map(idField).filter((id) => typeof id === 'string');
  if (ids.length === 0) return {};
  const at = `/body${ctx.dialect.list.items}`;
  return {
    must: {
      all: ids.map((id) => ({ not: { at, is: { hasItem: { at: '/id', is: { equals: id } } } } })),
    },
  };
}

/** The items of a list page as the dialect shows them; none when the answer is not a list. */
function listed(ctx: CheckContext, json: unknown): unknown[] {
  const items = valueAt(json, ctx.dialect.list.items);
  return Array.isArray(items) ? items : [];
}
