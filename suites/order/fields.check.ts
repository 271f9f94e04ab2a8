import { check, goodsTotal } from '../../lib/check/index.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { expectValidationFailed } from '../support/expect-validation.js';
import { cheapestLine, orderBody } from '../support/order-body.js';
import { ordering } from '../support/ordering.js';
import { uniqueExternalId } from '../support/unique-external-id.js';

/** Required members of the reference order body besides external_id (contract section 2). */
const REQUIRED = [
  ['items'],
  ['shipping_address'],
  ['items', 0, 'sku'],
  ['items', 0, 'quantity'],
  ['shipping_address', 'name'],
  ['shipping_address', 'line1'],
  ['shipping_address', 'city'],
  ['shipping_address', 'state'],
  ['shipping_address', 'postal_code'],
  ['shipping_address', 'country'],
] as const;

function without(body: object, path: readonly (string | number)[]): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  delete node[path.at(-1) as string | number];
  return copy;
}

check('ORDER-03', async (ctx) => {
  // Section 4, POST /orders: "Body: must contain external_id … missing required fields give 422 validation_failed."
  const { key, catalog } = await ordering(ctx);
  const res = await ctx.postOrder(key, without(orderBody(ctx, catalog), ['external_id']));
  expectValidationFailed(ctx, res);
});

check('ORDER-04', async (ctx) => {
  // Section 4: "missing required fields give 422 validation_failed"; the required fields are the
  // reference order body's (contract section 2), one left out at a time.
  const { key, catalog } = await ordering(ctx);
  for (const path of REQUIRED) {
    const body = orderBody(ctx, catalog);
    const res = await ctx.postOrder(key, without(body, path));
    expectValidationFailed(ctx, res);
    await expectNoOrder(ctx, key, body.external_id, `an order without /${path.join('/')}`);
  }
});

check('ORDER-05', async (ctx) => {
  // Section 4: "Unknown fields … give 422 validation_failed": at the top, in an item and in the address.
  const { key, catalog } = await ordering(ctx);
  const cases: [string, (b: ReturnType<typeof orderBody>) => void][] = [
    ['/gift_message', (b) => Object.assign(b, { gift_message: 'Happy birthday, Sam!' })],
    ['/items/0/color', (b) => Object.assign(b.items[0] as object, { color: 'forest green' })],
    [
      '/shipping_address/phone',
      (b) => Object.assign(b.shipping_address, { phone: '+1 415 555 0134' }),
    ],
  ];
  for (const [where, add] of cases) {
    const body = orderBody(ctx, catalog);
    add(body);
    const res = await ctx.postOrder(key, body);
    expectValidationFailed(ctx, res);
    await expectNoOrder(ctx, key, body.external_id, `an order with the unknown field ${where}`);
  }
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
  const line = cheapestLine(catalog);
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
  for (const [what, body] of accepted) {
    expectSuccess(ctx, await ctx.postOrder(key, body), `an order with ${what}`);
  }
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
  for (const [what, body] of refused) {
    const res = await ctx.postOrder(key, body);
    if (!ctx.expectProblem(res, { status: 422, code: 'validation_failed' }))
      ctx.note(`refusal of ${what} failed`);
  }
});
