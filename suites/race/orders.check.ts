import type { CheckContext, Key, Product } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, orderBody, requireId } from '../../lib/check/index.js';
import { catalogOf } from '../support/catalog.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { requireSuccess } from '../support/expect-success.js';
import { orderTotal } from '../support/order-total.js';
import { ordering } from '../support/ordering.js';
import {
  ACCEPTED,
  accepted,
  answersLine,
  expectRefusedAs,
  expectWithinRoom,
  inRounds,
  RACE_ROUNDS,
  RACERS,
} from '../support/race-rounds.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

// Section 2 (an order "has an external_id (unique per account)") and section 4, idempotency rule 4:
// orders with one external_id, each with a key of its own and lines of its own, racing: one is
// placed, every other is "a second order with an external_id already used" (409).
check('RACE-01', async (ctx) => {
  const { key, catalog } = await ordering(ctx);
  await inRounds(RACE_ROUNDS, async (round) => {
    const first = orderBody(ctx, catalog);
    const bodies = Array.from({ length: RACERS }, (_, n) =>
      n === 0 ? first : { ...orderBody(ctx, catalog), external_id: first.external_id },
    );
    const answers = await ctx.raceRequests(bodies.map((body) => ctx.orderRequest(key, body)));
    ctx.note(`round ${round}: ${answersLine(answers)}`);
    const placed = answers.filter(accepted);
    const one = ctx.expectTrue(placed.length === 1, {
      code: 'STATE',
      pointer: '/status',
      expected: `one of ${RACERS} racing orders with one external_id placed`,
      received: `${placed.length} placed: ${answersLine(answers)}`,
      message: `round ${round}: ${placed.length} of ${RACERS} orders racing with external_id ${first.external_id} were placed`,
      ...(placed[1] ? { exchange: placed[1].exchange } : {}),
      // As data over the racers' answers: a reproduction races them again and counts the placed.
      exchanges: answers.map((res) => res.exchange),
      must: { count: ACCEPTED, min: 1, max: 1 },
    });
    const refused = expectRefusedAs(ctx, answers, { status: 409, code: 'duplicate_external_id' });
    const winner = placed[0];
    if (!winner) return one && refused;
    const id = requireId(ctx.dialect, 'order', winner.json, 'the order placed', winner.exchange);
    const single = await expectSingleOrder(
      ctx,
      key,
      first.external_id,
      id,
      `orders racing with one external_id (round ${round})`,
    );
    return one && refused && single;
  });
});

// Section 4 rule 5 and section 8 ("Maximum orders per day | … Over it: 422 validation_failed"):
// an account allowed three orders a day places one, then four race for the last two places.
check('RACE-04', async (ctx) => {
  const PER_DAY = 3;
  await inRounds(RACE_ROUNDS, async (round) => {
    const { key, catalog } = await ordering(ctx, { limits: { max_orders_per_day: PER_DAY } });
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'the first order of the day');
    const room = PER_DAY - 1;
    const requests = Array.from({ length: room + 2 }, () =>
      ctx.orderRequest(key, orderBody(ctx, catalog)),
    );
    const answers = await ctx.raceRequests(requests);
    ctx.note(`round ${round}: ${answersLine(answers)}`);
    return expectWithinRoom(
      ctx,
      answers,
      room,
      { status: 422, code: 'validation_failed' },
      `orders for the day's last ${room} places`,
    );
  });
});

/** Probation's caps (section 3): orders and their total on a new live key in its first 24 hours. */
const PROBATION_ORDERS = 3;
const PROBATION_CENTS = 50_000;
const PRINT: Product = {
  sku: 'RACE-PRINT',
  name: 'Art print',
  unit_price: 2_000,
  min_quantity: 1,
  ships_by_freight: false,
};
const FRAME: Product = {
  sku: 'RACE-FRAME',
  name: 'Framed print',
  unit_price: 25_000,
  min_quantity: 1,
  ships_by_freight: false,
};
const PRODUCTS = [PRINT, FRAME];
const catalog = catalogOf(PRODUCTS);

/**
 * One race of orders of `product` on a new live key: at most three placed,
 * and their totals (read from the answers: a target may add shipping) at
 * most $500.00 together; the rest refused 422 limit_exceeded.
 */
async function probationRace(
  ctx: CheckContext,
  key: Key,
  product: Product,
  racers: number,
  round: number,
): Promise<boolean> {
  const requests = Array.from({ length: racers }, () =>
    ctx.orderRequest(key, orderBody(ctx, catalog, { items: [{ sku: product.sku, quantity: 1 }] })),
  );
  const answers = await ctx.raceRequests(requests);
  ctx.note(`round ${round}, ${racers} orders of ${product.name}: ${answersLine(answers)}`);
  const placed = answers.filter(accepted);
  const totals = placed.map((res) => orderTotal(ctx, res.json) ?? product.unit_price);
  const sum = totals.reduce((a, b) => a + b, 0);
  const within = ctx.expectTrue(placed.length <= PROBATION_ORDERS && sum <= PROBATION_CENTS, {
    code: 'STATE',
    pointer: '/status',
    expected: `at most ${PROBATION_ORDERS} orders and $500.00 on probation`,
    received: `${placed.length} orders placed, ${sum} cents in all: ${answersLine(answers)}`,
    message: `round ${round}: ${racers} racing orders of a new live key went over probation`,
    ...(placed[0] ? { exchange: placed[placed.length - 1]?.exchange ?? placed[0].exchange } : {}),
    // As data over the racers' answers, the caps as a count of this product's orders (a
    // reproduction counts answers; their totals stay the check's).
    exchanges: answers.map((res) => res.exchange),
    must: {
      count: ACCEPTED,
      max: Math.min(PROBATION_ORDERS, Math.floor(PROBATION_CENTS / product.unit_price)),
    },
  });
  const refused = expectRefusedAs(ctx, answers, { status: 422, code: 'limit_exceeded' });
  return within && refused;
}

// Section 3 ("live key, new … First 24 hours … At most 3 orders or $500.00 in that time. Beyond
// that, limit_exceeded"): orders of a new live key racing for its probation, each cap on a new key
// of its own: five $20.00 orders (the count), four $250.00 orders (the total).
check('RACE-05', async (ctx) => {
  await inRounds(RACE_ROUNDS, async (round) => {
    const { account } = await ordering(ctx, { live_access: true, products: PRODUCTS });
    if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
    const [counted, valued] = await Promise.all([
      ctx.key({ mode: 'live', account }),
      ctx.key({ mode: 'live', account }),
    ]);
    const count = await probationRace(ctx, counted, PRINT, PROBATION_ORDERS + 2, round);
    const value = await probationRace(ctx, valued, FRAME, 4, round);
    return count && value;
  });
});
