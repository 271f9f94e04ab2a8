import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  idIn,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

/**
 * A replay is a way to be answered with an order: it must not reach an order
 * the key does not own, in another account or mode. A new order, or a refusal, is legal: a
 * target whose keys are taken across accounts may answer 409 (IDEM-15 judges
 * that, apart) and one whose external_id is unique across modes may
 * answer 409 duplicate_external_id (MODE-06). What is judged is only the
 * object: its id where the profile shows an order's id, and, in a success,
 * anywhere in the body.
 */
function expectNotTheirs(ctx: CheckContext, res: HttpResponse, theirs: string, what: string): void {
  const shown = idIn(ctx.dialect, 'order', res.json);
  const inSuccess = res.status >= 200 && res.status < 300 && res.text.includes(theirs);
  ctx.expectTrue(shown !== theirs && !inSuccess, {
    code: 'LEAK',
    pointer: `/body${ctx.dialect.answers.order.id}`,
    expected: 'a new order or a refusal, never the order the key does not own',
    received: shown ?? `a ${res.status} answer naming ${theirs}`,
    message: `${what} was answered with an order its key does not own`,
    exchange: res.exchange,
    // As data, on an answer of any status (a new order and a refusal are both legal).
    must: {
      all: [
        { at: '/status', is: { between: [100, 599] } },
        { not: { at: `/body${ctx.dialect.answers.order.id}`, is: { equals: theirs } } },
      ],
    },
  });
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-18', async (ctx) => {
  // Section 7: not_found for "No such object in the account": another account's order is no object
  // of this account, replay or not. The second account sends the first's Idempotency-Key and exact body.
  const owner = await ordering(ctx);
  const stranger = await ordering(ctx);
  const idempotencyKey = newIdempotencyKey();
  const body = orderBody(ctx, owner.catalog);
  const placed = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(owner.key, body, { idempotencyKey }),
      "placing the first account's order",
    ),
    "placing the first account's order",
  );
  const res = await ctx.postOrder(stranger.key, body, { idempotencyKey });
  expectNotTheirs(ctx, res, placed, "another account's request with the same key and body");
});

check('IDEM-19', async (ctx) => {
  // Section 1: "Objects belong to exactly one mode. Test keys see only test objects": a replay is no
  // way around it. A test key sends the Idempotency-Key and exact body a live key placed an order with.
  const { key: testKey, account, catalog } = await ordering(ctx, { live_access: true });
  const liveKey = await ctx.key({ mode: 'live', ...(account ? { account } : {}) });
  const idempotencyKey = newIdempotencyKey();
  const body = orderBody(ctx, catalog);
  const placed = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(liveKey, body, { idempotencyKey }),
      'placing the live order',
    ),
    'placing the live order',
  );
  ctx.onCleanup(async () => {
    await ctx.api(liveKey).post(ctx.path('orderCancel', { id: placed }));
  });
  const res = await ctx.postOrder(testKey, body, { idempotencyKey });
  expectNotTheirs(ctx, res, placed, "a test key's request with a live order's key and body");
});
