import type { CheckContext, Key, Product } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, HarnessError, orderBody } from '../../lib/check/index.js';
import type { OrderCatalog } from '../support/catalog.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { expectValidationFailed } from '../support/expect-validation.js';
import { amountForms, expectNamesLimit } from '../support/names-limit.js';
import { orderTotal, quotedTotal } from '../support/order-total.js';
import { ordering } from '../support/ordering.js';

/** One product at a round price, so that totals hit a limit exactly. */
const BOX: Product = {
  sku: 'LIM-GIFT-BOX',
  name: 'Gift box',
  unit_price: 2500,
  min_quantity: 1,
  ships_by_freight: false,
};

/** A product of one cent, to go one cent over a limit. */
const CENT: Product = {
  sku: 'LIM-CARD',
  name: 'Gift tag',
  unit_price: 1,
  min_quantity: 1,
  ships_by_freight: false,
};

const ORDER_VALUE = {
  name: /max(imum)?[\s_-]*order[\s_-]*value/i,
  what: 'the maximum order value',
};
const PER_DAY = {
  name: /(max(imum)?[\s_-]*)?orders?[\s_-]*per[\s_-]*day|daily/i,
  what: 'the maximum orders per day',
};

async function place(
  ctx: CheckContext,
  key: Key,
  catalog: OrderCatalog,
  what: string,
): Promise<string> {
  const body = orderBody(ctx, catalog);
  return idOf(ctx, requireSuccess(await ctx.postOrder(key, body), what), what);
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-10', async (ctx) => {
  // Section 4, order rule 5: "The order must not exceed the account's maximum order value";
  // section 7: 422 validation_failed, "the message names the limit".
  const { key, account, catalog } = ctx.has('accounts')
    ? await ordering(ctx, { products: [BOX, CENT], limits: { max_order_value: 20_000 } })
    : await ordering(ctx);
  const max = catalog.maxOrderValue;
  const product = catalog.products
    .filter((p) => !p.ships_by_freight && p.unit_price > 0)
    .sort((a, b) => b.unit_price - a.unit_price)[0];
  if (max === undefined || !product) {
    return ctx.notVerifiable('the account shows no maximum order value or no priced product');
  }
  const quantity = Math.max(product.min_quantity, Math.floor(max / product.unit_price) + 1);
  const body = orderBody(ctx, catalog, { items: [{ sku: product.sku, quantity }] });
  const res = await ctx.postOrder(key, body);
  if (expectValidationFailed(ctx, res)) {
    expectNamesLimit(ctx, res, { ...ORDER_VALUE, values: amountForms(max) });
  }
  await expectNoOrder(ctx, key, body.external_id, 'an order over the maximum order value');
  // The boundary's other side (ORDER-11 takes the maximum itself): one cent over. The limit
  // applies to the total, which may include shipping: the maximum is set a cent under the
  // total the target quotes for the lines.
  if (!account) {
    ctx.note('one cent over the maximum is not tried: needs an account of its own');
    return;
  }
  const items = [
    { sku: BOX.sku, quantity: 8 },
    { sku: CENT.sku, quantity: 1 },
  ];
  const total = await quotedTotal(ctx, key, catalog, items);
  if (total !== 20_001) {
    ctx.note(
      `the target quotes ${total} cents for $200.01 of goods: the maximum is set a cent under`,
    );
    await ctx.control.updateAccount(account.id, { limits: { max_order_value: total - 1 } });
  }
  const centOver = orderBody(ctx, catalog, { items });
  expectValidationFailed(ctx, await ctx.postOrder(key, centOver));
  await expectNoOrder(ctx, key, centOver.external_id, 'an order one cent over the maximum');
});

check('ORDER-11', async (ctx) => {
  // Section 4, order rule 5: "must not exceed" the maximum order value: equal to it is allowed.
  // The limit applies to the total, which the target may raise by shipping: read, never computed.
  const max = 20_000;
  const { key, account, catalog } = await ordering(ctx, {
    products: [BOX],
    limits: { max_order_value: max },
  });
  const items = [{ sku: BOX.sku, quantity: 8 }];
  const res = await ctx.postOrder(key, orderBody(ctx, catalog, { items }));
  if (res.status >= 300 && account) {
    const total = await quotedTotal(ctx, key, catalog, items);
    if (total !== max) {
      // Lines of $200.00 cost more with shipping: set the maximum to what the target charges.
      ctx.note(
        `the target quotes ${usd(total)} for $200.00 of goods: the maximum is set to that total`,
      );
      await ctx.control.updateAccount(account.id, { limits: { max_order_value: total } });
      expectSuccess(
        ctx,
        await ctx.postOrder(key, orderBody(ctx, catalog, { items })),
        `an order of exactly the maximum order value (${usd(total)})`,
      );
      return;
    }
  }
  if (!expectSuccess(ctx, res, 'an order of exactly the maximum order value ($200.00)')) return;
  const total = orderTotal(ctx, res.json);
  if (total === undefined) {
    ctx.note(
      `the order shows no total at ${ctx.dialect.totals.order} (set dialect.totals.order in the profile): the goods cost exactly the maximum`,
    );
  } else if (total !== max) {
    ctx.notVerifiable(
      `the order's total is ${usd(total)}, not the maximum order value ($200.00): an order of exactly the maximum was not placed`,
    );
  }
});

function usd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

check('ORDER-12', async (ctx) => {
  // Section 4, order rule 5 and section 8: at most the account's maximum orders per day;
  // beyond it 422 validation_failed whose message names the limit (section 7).
  const { key, catalog } = await ordering(ctx, { limits: { max_orders_per_day: 2 } });
  const body = orderBody(ctx, catalog);
  for (let n = 1; n <= 2; n++) {
    expectSuccess(
      ctx,
      await ctx.postOrder(key, orderBody(ctx, catalog)),
      `order ${n} of 2 allowed today`,
    );
  }
  const res = await ctx.postOrder(key, body);
  if (expectValidationFailed(ctx, res)) {
    expectNamesLimit(ctx, res, { ...PER_DAY, values: ['2'] });
  }
  await expectNoOrder(ctx, key, body.external_id, 'the order beyond the maximum orders per day');
});

check('ORDER-13', async (ctx) => {
  // Section 4, order rule 5, as the contract reads it: cancelled orders still count toward orders per day.
  const { key, catalog } = await ordering(ctx, { limits: { max_orders_per_day: 2 } });
  for (let n = 1; n <= 2; n++) {
    const id = await place(ctx, key, catalog, `placing order ${n} of 2`);
    requireSuccess(
      await ctx.api(key).post(ctx.path('orderCancel', { id })),
      `cancelling order ${n}`,
    );
  }
  const res = await ctx.postOrder(key, orderBody(ctx, catalog));
  expectValidationFailed(ctx, res);
});

check('ORDER-14', async (ctx) => {
  // Section 1 (objects belong to one mode) and section 4 rule 5, as the contract reads them:
  // orders per day count per mode.
  const {
    key: testKey,
    account,
    catalog,
  } = await ordering(ctx, {
    live_access: true,
    limits: { max_orders_per_day: 1 },
  });
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const liveKey = await ctx.key({ mode: 'live', account });
  await place(ctx, testKey, catalog, 'placing the one test order allowed today');
  const live = await ctx.postOrder(liveKey, orderBody(ctx, catalog));
  expectSuccess(ctx, live, "a live order after the test mode's one order of the day");
  const again = await ctx.postOrder(testKey, orderBody(ctx, catalog));
  if (again.status < 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      'the test mode took a second order: the limit of 1 a day did not hold, so the check proves nothing',
    );
  }
});

check('ORDER-15', async (ctx) => {
  // Contract section 2: the day for orders per day is the UTC calendar day of the account's clock.
  const { key, account, catalog } = await ordering(ctx, { limits: { max_orders_per_day: 1 } });
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  // Move to 23:00 UTC, place the day's one order, then step two hours into the next day:
  // a calendar day allows an order again; a rolling 24 hours would not.
  const now = Date.parse(await ctx.control.advanceClock(account.id, 1));
  const elevenPm = new Date(now);
  elevenPm.setUTCHours(23, 0, 0, 0);
  if (elevenPm.getTime() <= now) elevenPm.setUTCDate(elevenPm.getUTCDate() + 1);
  await ctx.advanceClock(account, Math.ceil((elevenPm.getTime() - now) / 1000));
  await place(ctx, key, catalog, "placing the day's one order at 23:00 UTC");
  const sameDay = await ctx.postOrder(key, orderBody(ctx, catalog));
  if (sameDay.status < 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      'a second order the same day was taken: the limit of 1 did not hold',
    );
  }
  await ctx.advanceClock(account, 2 * 3600);
  expectSuccess(
    ctx,
    await ctx.postOrder(key, orderBody(ctx, catalog)),
    'an order at 01:00 UTC the next day',
  );
});

check('ORDER-28', async (ctx) => {
  // Section 4 rule 5 and section 8: a maximum of orders "per day". Whatever day is meant (a UTC
  // calendar day, the account's time zone, a rolling 24 hours: ORDER-15 judges the reference's),
  // 48 hours later a new day has begun and the allowance is back.
  const { key, account, catalog } = await ordering(ctx, { limits: { max_orders_per_day: 1 } });
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await place(ctx, key, catalog, "placing the day's one order");
  const sameDay = await ctx.postOrder(key, orderBody(ctx, catalog));
  if (sameDay.status < 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      'a second order the same day was taken: the limit of 1 did not hold (ORDER-12 judges that)',
    );
  }
  await ctx.advanceClock(account, 48 * 3600);
  expectSuccess(
    ctx,
    await ctx.postOrder(key, orderBody(ctx, catalog)),
    "an order 48 hours after the day's one order",
  );
});
