import type { CheckContext, Key, Product, TestAccount } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, type OrderLine, orderBody } from '../../lib/check/index.js';
import { catalogOf } from '../support/catalog.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { quotedTotal } from '../support/order-total.js';
import { ordering } from '../support/ordering.js';

/** Round prices so that probation's $500.00 is hit exactly (section 3, section 8). */
const PRINT: Product = {
  sku: 'PRB-PRINT',
  name: 'Art print',
  unit_price: 2_000,
  min_quantity: 1,
  ships_by_freight: false,
};
const FRAME: Product = {
  sku: 'PRB-FRAME',
  name: 'Framed print',
  unit_price: 25_000,
  min_quantity: 1,
  ships_by_freight: false,
};
const CARD: Product = {
  sku: 'PRB-CARD',
  name: 'Greeting card',
  unit_price: 1,
  min_quantity: 1,
  ships_by_freight: false,
};
const PRODUCTS = [PRINT, FRAME, CARD];
const catalog = catalogOf(PRODUCTS);

const PROBATION_SECONDS = 24 * 3600;
const HALF_DAY_SECONDS = 12 * 3600;

/**
 * An account with live access, the suite's probation products and limits
 * far above probation's, and a new live key in it. Placing live orders needs
 * the user's consent (`live_orders`); against the bundled reference the
 * engine gives it, against any other target only `--allow-live-orders` does.
 */
async function liveAccount(ctx: CheckContext): Promise<{ account: TestAccount; key: Key }> {
  const { account } = await ordering(ctx, { live_access: true, products: PRODUCTS });
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  return { account, key: await ctx.key({ mode: 'live', account }) };
}

function send(ctx: CheckContext, key: Key, items: OrderLine[] = [{ sku: PRINT.sku, quantity: 1 }]) {
  const body = orderBody(ctx, catalog, { items });
  return ctx.postOrder(key, body).then((res) => ({ res, body }));
}

async function placeThree(ctx: CheckContext, key: Key): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= 3; n++) {
    const { res } = await send(ctx, key);
    ids.push(
      idOf(ctx, requireSuccess(res, `live order ${n} of 3 on probation`), `live order ${n}`),
    );
  }
  return ids;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('PROB-01', async (ctx) => {
  // Section 3: a new live key's first 24 hours: "At most 3 orders … Beyond that, limit_exceeded" (422, section 7).
  const { key } = await liveAccount(ctx);
  for (let n = 1; n <= 3; n++) {
    expectSuccess(ctx, (await send(ctx, key)).res, `live order ${n} of 3 allowed on probation`);
  }
  const { res, body } = await send(ctx, key);
  ctx.expectProblem(res, { status: 422, code: 'limit_exceeded' });
  await expectNoOrder(ctx, key, body.external_id, 'the 4th order on probation');
});

check('PROB-02', async (ctx) => {
  // Section 3: "At most 3 orders or $500.00 in that time": $500.00 is allowed, a cent more is not.
  // The cap applies to totals, which the target may raise by shipping: read, never computed.
  const { account, key } = await liveAccount(ctx);
  let exactly = await send(ctx, key, [{ sku: FRAME.sku, quantity: 2 }]);
  if (exactly.res.status >= 300) {
    const items = await linesTotalling(ctx, key, CAP);
    if (items) exactly = await send(ctx, key, items);
  }
  expectSuccess(ctx, exactly.res, 'a first live order of exactly $500.00');
  const { res, body } = await send(ctx, key, [{ sku: CARD.sku, quantity: 1 }]);
  ctx.expectProblem(res, { status: 422, code: 'limit_exceeded' });
  await expectNoOrder(ctx, key, body.external_id, 'an order beyond $500.00 on probation');
  // A single order over $500.00 on a second new key.
  const second = await ctx.key({ mode: 'live', account });
  const over = await send(ctx, second, [
    { sku: FRAME.sku, quantity: 2 },
    { sku: CARD.sku, quantity: 1 },
  ]);
  ctx.expectProblem(over.res, { status: 422, code: 'limit_exceeded' });
});

/** Probation's cap, in cents (section 3). */
const CAP = 50_000;

/**
 * Lines whose total, as the target quotes it, is exactly `target` cents;
 * undefined when $500.00 of goods already totals $500.00 (a refusal is then
 * the violation). Shipping is taken off the goods once and the result quoted
 * again: a target whose shipping moves with the lines leaves it not verifiable.
 */
async function linesTotalling(
  ctx: CheckContext,
  key: Key,
  target: number,
): Promise<OrderLine[] | undefined> {
  const total = await quotedTotal(ctx, key, catalog, [{ sku: FRAME.sku, quantity: 2 }]);
  if (total === target) return undefined;
  const goods = target - (total - target);
  if (goods < FRAME.unit_price) {
    return ctx.notVerifiable(
      `the target quotes $500.00 of goods at ${total} cents: too much shipping to compose an order of exactly $500.00`,
    );
  }
  const rest = goods - FRAME.unit_price;
  const prints = Math.floor(rest / PRINT.unit_price);
  const cards = rest - prints * PRINT.unit_price;
  const items = [
    { sku: FRAME.sku, quantity: 1 },
    ...(prints > 0 ? [{ sku: PRINT.sku, quantity: prints }] : []),
    ...(cards > 0 ? [{ sku: CARD.sku, quantity: cards }] : []),
  ];
  const quoted = await quotedTotal(ctx, key, catalog, items);
  if (quoted !== target) {
    return ctx.notVerifiable(
      `no order of exactly $500.00 could be composed: the target quotes ${quoted} cents for lines meant to total ${target} (its shipping changes with the lines)`,
    );
  }
  ctx.note(
    `the target charges ${total - target} cents of shipping: the order of exactly $500.00 is ${JSON.stringify(items)}`,
  );
  return items;
}

check('PROB-03', async (ctx) => {
  // Section 3: probation is the key's "First 24 hours", counted from the key, not from its first
  // order: the orders are placed 12 hours in, then one more is refused at 23:59 and taken at 24:01.
  const { account, key } = await liveAccount(ctx);
  await ctx.advanceClock(account, HALF_DAY_SECONDS);
  await placeThree(ctx, key);
  await ctx.advanceClock(account, PROBATION_SECONDS - HALF_DAY_SECONDS - 60);
  const before = await send(ctx, key);
  ctx.expectProblem(before.res, { status: 422, code: 'limit_exceeded' });
  await ctx.advanceClock(account, 120);
  expectSuccess(
    ctx,
    (await send(ctx, key)).res,
    'a 4th live order 24 hours and 1 minute after the key was made',
  );
});

check('PROB-04', async (ctx) => {
  // Section 3: "Probation can be ended early on request to the operator."
  const { key } = await liveAccount(ctx);
  await placeThree(ctx, key);
  const refused = await send(ctx, key);
  if (refused.res.status < 300)
    ctx.note('the 4th order was taken before probation was ended (PROB-01 judges that)');
  await ctx.control.endProbation(key);
  expectSuccess(ctx, (await send(ctx, key)).res, 'a live order after the operator ended probation');
});

check('PROB-05', async (ctx) => {
  // Section 3 probation, as the contract reads it: cancelled orders still count.
  const { key } = await liveAccount(ctx);
  const [first] = await placeThree(ctx, key);
  requireSuccess(
    await ctx.api(key).post(ctx.path('orderCancel', { id: first as string })),
    'cancelling a probation order',
  );
  const { res } = await send(ctx, key);
  ctx.expectProblem(res, { status: 422, code: 'limit_exceeded' });
});

check('PROB-06', async (ctx) => {
  // Section 3 ("live key, new" → probation), as the contract reads it: probation counts per live key.
  const { account, key } = await liveAccount(ctx);
  await placeThree(ctx, key);
  const second = await ctx.key({ mode: 'live', account });
  expectSuccess(ctx, (await send(ctx, second)).res, "a second new live key's first order");
});

check('PROB-07', async (ctx) => {
  // Section 3: probation is a state of a new LIVE key; test keys have none.
  const { key } = await ordering(ctx, { products: PRODUCTS });
  for (let n = 1; n <= 4; n++) {
    expectSuccess(ctx, (await send(ctx, key)).res, `test order ${n} in a new test key's first day`);
  }
});
