import type { OrderLine } from '../../lib/check/index.js';
import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type Key,
  orderBodyOf,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { brokenOrderExamples, orderBreakingOneRule } from '../arbitraries/orderBreakingOneRule.js';
import { validOrder, validOrderExamples } from '../arbitraries/validOrder.js';
import type { OrderCatalog } from '../support/catalog.js';
import { expectSuccess } from '../support/expect-success.js';
import { expectPointer, expectValidationFailed } from '../support/expect-validation.js';
import { quotedTotal } from '../support/order-total.js';
import { type Ordering, ordering } from '../support/ordering.js';
import { orderingLanes } from '../support/ordering-lanes.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * An account of the check's own with a realistic maximum order value
 * ($5,000), so generated orders stay realistic and the over-the-maximum case
 * needs no absurd quantities.
 */
function generatedOrdering(ctx: CheckContext): Promise<Ordering> {
  return ctx.has('accounts')
    ? ordering(ctx, { limits: { max_order_value: 500_000 } })
    : ordering(ctx);
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-16', async (ctx) => {
  // Section 4, rules for the order body: an order that keeps rules 1 to 5 is accepted, whatever its shape.
  const first = await generatedOrdering(ctx);
  const { account, catalog } = first;
  await ctx.propertyInLanes(
    validOrder(catalog),
    orderingLanes(ctx, first, () => generatedOrdering(ctx)),
    async (order, { key, pacer }) => {
      await pacer.write();
      const externalId = uniqueExternalId(order.externalId);
      const body = orderBodyOf(ctx.dialect.orderBody, { ...order, externalId });
      const res = await ctx.postOrder(key, body);
      if (res.status >= 300 && (await overMaximum(ctx, key, catalog, [...order.items]))) return;
      expectSuccess(ctx, res, `a valid order of ${order.items.length} line(s)`);
    },
    {
      numRuns: propertyRuns(ctx, account !== undefined, 5),
      // Every product at its minimum, and an order at (or just under) the maximum order value.
      examples: validOrderExamples(catalog).map((order) => [order]),
    },
  );
});

check('ORDER-17', async (ctx) => {
  // Section 4: "Breaking any rule gives 422 validation_failed"; section 7: each problem is in errors[].
  const first = await generatedOrdering(ctx);
  const { account, catalog } = first;
  await ctx.propertyInLanes(
    orderBreakingOneRule(catalog, ctx.dialect.orderBody),
    orderingLanes(ctx, first, () => generatedOrdering(ctx)),
    async (broken, { key, pacer }) => {
      await pacer.write();
      const res = await ctx.postOrder(key, withUniqueExternalId(broken.body));
      expectValidationFailed(ctx, res);
    },
    {
      numRuns: propertyRuns(ctx, account !== undefined, 10),
      // A quantity one under its minimum, and the cheapest order over the maximum order value.
      examples: brokenOrderExamples(catalog, ctx.dialect.orderBody).map((broken) => [broken]),
    },
  );
});

check('ORDER-18', async (ctx) => {
  // Section 2: "Field errors also carry a pointer to the field"; contract section 2: `pointer`
  // is an RFC 6901 JSON Pointer into the request body. Errors of no single field may omit it.
  const first = await generatedOrdering(ctx);
  const { account, catalog } = first;
  await ctx.propertyInLanes(
    orderBreakingOneRule(catalog, ctx.dialect.orderBody),
    orderingLanes(ctx, first, () => generatedOrdering(ctx)),
    async (broken, { key, pacer }) => {
      await pacer.write();
      const res = await ctx.postOrder(key, withUniqueExternalId(broken.body));
      if (res.status !== 422) return; // ORDER-17 judges the status
      if (broken.pointer !== undefined) expectPointer(ctx, res, broken.pointer);
    },
    {
      numRuns: propertyRuns(ctx, account !== undefined, 10),
      // A quantity one under its minimum, and the cheapest order over the maximum order value.
      examples: brokenOrderExamples(catalog, ctx.dialect.orderBody).map((broken) => [broken]),
    },
  );
});

const noted = new WeakSet<CheckContext>();

/**
 * Whether the total the target quotes for these lines is over the account's
 * maximum order value: goods under the maximum may exceed it with shipping,
 * and refusing them is then legal (section 4, rule 5 limits the total).
 */
async function overMaximum(
  ctx: CheckContext,
  key: Key,
  catalog: OrderCatalog,
  items: OrderLine[],
): Promise<boolean> {
  if (catalog.maxOrderValue === undefined) return false;
  const total = await quotedTotal(ctx, key, catalog, items);
  if (total <= catalog.maxOrderValue) return false;
  if (!noted.has(ctx)) {
    noted.add(ctx);
    ctx.note(
      `a generated order totals ${total} cents with shipping, over the maximum: its refusal is legal (and so is any such)`,
    );
  }
  return true;
}

/** Broken orders are refused, but a missing-field case may lack external_id: leave it missing. */
function withUniqueExternalId(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.external_id !== 'string') return body;
  return { ...body, external_id: uniqueExternalId(body.external_id) };
}
