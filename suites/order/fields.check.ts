import type { OrderBodyShape } from '../../lib/check/index.js';
import {
  type CheckContext,
  cheapestLine,
  check,
  checksUseOwnAccounts,
  goodsTotal,
  type Key,
  orderBody,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { expectNoOrders } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { expectValidationFailed } from '../support/expect-validation.js';
import { ordering } from '../support/ordering.js';

/**
 * Required members of the order body besides external_id (contract section 2),
 * as JSON pointers where the dialect puts them: the lines, the object holding
 * the address (when the address has one), SKU and quantity of the first line,
 * and every address field but line2.
 */
function requiredPointers(shape: OrderBodyShape): string[] {
  const { line2: _, ...address } = shape.address;
  const holder = addressHolder(shape);
  return [
    shape.items,
    ...(holder ? [holder] : []),
    `${shape.items}/0${shape.sku}`,
    `${shape.items}/0${shape.quantity}`,
    ...Object.values(address),
  ];
}

/** The object every address field lies in (`/shipping_address`), or undefined when none. */
function addressHolder(shape: OrderBodyShape): string | undefined {
  const parents = new Set(
    Object.values(shape.address).map((pointer) => pointer.slice(0, pointer.lastIndexOf('/'))),
  );
  const [parent] = parents;
  return parents.size === 1 && parent ? parent : undefined;
}

function tokensOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The object at a pointer into the body, or undefined when the body has none there. */
function objectAt(body: object, pointer: string): Record<string, unknown> | undefined {
  let node: unknown = body;
  for (const token of tokensOf(pointer)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>) : undefined;
}

function without(body: object, pointer: string): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown>;
  const cut = pointer.lastIndexOf('/');
  const parent = objectAt(copy, pointer.slice(0, cut));
  if (parent) delete parent[tokensOf(pointer).at(-1) as string];
  return copy;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-03', async (ctx) => {
  // Section 4, POST /orders: "Body: must contain external_id … missing required fields give 422 validation_failed."
  const { key, catalog } = await ordering(ctx);
  const res = await ctx.postOrder(key, without(orderBody(ctx, catalog), '/external_id'));
  expectValidationFailed(ctx, res);
});

/**
 * Orders that break one rule each, every one with an external_id of its own:
 * sent all at once, each refused with 422 validation_failed and none placed,
 * judged in their order. The bodies are drawn before (the same seed, the same
 * bodies).
 */
async function expectRefused(
  ctx: CheckContext,
  key: Key,
  orders: readonly { sent: object; externalId: string; after: string }[],
): Promise<void> {
  const answers = await allAtOnce(orders, ({ sent }) => ctx.postOrder(key, sent));
  for (const res of answers) expectValidationFailed(ctx, res);
  await expectNoOrders(
    ctx,
    orders.map(({ externalId, after }) => ({ key, externalId, after })),
  );
}

check('ORDER-04', async (ctx) => {
  // Section 4: "missing required fields give 422 validation_failed"; the required fields are the
  // reference order body's (contract section 2), one left out at a time.
  const { key, catalog } = await ordering(ctx);
  await expectRefused(
    ctx,
    key,
    requiredPointers(ctx.dialect.orderBody).map((pointer) => {
      const body = orderBody(ctx, catalog);
      return {
        sent: without(body, pointer),
        externalId: body.external_id,
        after: `an order without ${pointer}`,
      };
    }),
  );
});

check('ORDER-05', async (ctx) => {
  // Section 4: "Unknown fields … give 422 validation_failed": at the top, in an item and in the address.
  const { key, catalog } = await ordering(ctx);
  // Where the dialect puts a line and the address (an address at the top is covered by the first case).
  const line = `${ctx.dialect.orderBody.items}/0`;
  const holder = addressHolder(ctx.dialect.orderBody);
  const cases: [string, string, string][] = [
    ['', 'gift_message', 'Happy birthday, Sam!'],
    [line, 'color', 'forest green'],
    ...(holder ? [[holder, 'phone', '+1 415 555 0134'] as [string, string, string]] : []),
  ];
  await expectRefused(
    ctx,
    key,
    cases.map(([at, field, value]) => {
      const body = orderBody(ctx, catalog);
      const into = objectAt(body, at);
      if (!into) throw new Error(`the order body has no object at ${at || '/'}`);
      into[field] = value;
      return {
        sent: body,
        externalId: body.external_id,
        after: `an order with the unknown field ${at}/${field}`,
      };
    }),
  );
});

check('ORDER-21', async (ctx) => {
  // Section 4 lets the client send the order body; id, status and total are the service's
  // (contract section 2 order). Common API practice: a read-only field sent in is refused, not ignored.
  const { key, catalog } = await ordering(ctx);
  const readOnly: Record<string, unknown> = {
    id: 'ord_chosen_by_client',
    status: 'shipped',
    total: { amount: 1, currency: 'USD' },
  };
  for (const [field, value] of Object.entries(readOnly)) {
    const body = { ...orderBody(ctx, catalog), [field]: value };
    const res = await ctx.postOrder(key, body);
    ctx.expectTrue(res.status >= 400 && res.status < 500, {
      code: 'STATUS',
      pointer: '/status',
      expected: '4xx',
      received: res.status,
      message: `an order body setting ${field} was not refused`,
      exchange: res.exchange,
    });
  }
});

check('ORDER-25', async (ctx) => {
  // Contract section 2 order body: external_id has 1..64 characters; 1..100 items.
  const { key, account, catalog } = await ordering(ctx);
  const line = cheapestLine(catalog.products);
  const accepted: [string, ReturnType<typeof orderBody>][] = [
    [
      'a 64-character external_id',
      orderBody(ctx, catalog, { externalId: uniqueExternalId('x'.repeat(64)) }),
    ],
  ];
  const hundred = Array.from({ length: 100 }, () => ({ ...line }));
  // Only one rule at a time: 100 lines must stay within the maximum order value.
  if (
    catalog.maxOrderValue === undefined ||
    goodsTotal(catalog.products, hundred) <= catalog.maxOrderValue
  ) {
    accepted.push(['100 items', orderBody(ctx, catalog, { items: hundred })]);
  } else ctx.note('100 items of the cheapest product exceed the maximum order value: not tried');
  // A 1-character external_id can only be fresh in an account of the check's own.
  if (account)
    accepted.push(['a 1-character external_id', orderBody(ctx, catalog, { externalId: 'x' })]);
  else
    ctx.note(
      'partner key: a 1-character external_id is not tried (it may exist from an earlier run)',
    );
  const refused: [string, ReturnType<typeof orderBody>][] = [
    ['an empty external_id', orderBody(ctx, catalog, { externalId: '' })],
    [
      'a 65-character external_id',
      orderBody(ctx, catalog, { externalId: `${uniqueExternalId('y'.repeat(64))}z` }),
    ],
    ['no items', orderBody(ctx, catalog, { items: [] })],
    [
      '101 items',
      orderBody(ctx, catalog, { items: Array.from({ length: 101 }, () => ({ ...line })) }),
    ],
  ];
  // Every order at once (the bodies were drawn in order above), judged in order.
  const place = ([what, body]: [string, ReturnType<typeof orderBody>]) =>
    ctx.postOrder(key, body).then((res) => ({ what, res }));
  const [taken, turnedAway] = await together(allAtOnce(accepted, place), allAtOnce(refused, place));
  for (const { what, res } of taken) expectSuccess(ctx, res, `an order with ${what}`);
  for (const { what, res } of turnedAway) {
    if (!ctx.expectProblem(res, { status: 422, code: 'validation_failed' }))
      ctx.note(`refusal of ${what} failed`);
  }
});
