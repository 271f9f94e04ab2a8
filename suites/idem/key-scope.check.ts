import {
  check,
  checksUseOwnAccounts,
  idIn,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-15', async (ctx) => {
  // Section 4, idempotency rules 1 to 3, as the contract reads them: keys are scoped to the
  // account; another account's identical key is a new request, never a replay or a conflict.
  const first = await ordering(ctx);
  const second = await ordering(ctx);
  const idempotencyKey = newIdempotencyKey();
  const placed = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(first.key, orderBody(ctx, first.catalog), { idempotencyKey }),
      "placing the first account's order",
    ),
    "placing the first account's order",
  );
  const body = orderBody(ctx, second.catalog);
  const res = await ctx.postOrder(second.key, body, { idempotencyKey });
  if (!expectSuccess(ctx, res, "another account's request with the same key")) return;
  ctx.expectNoHeader(res, 'Idempotent-Replayed', "another account's order is not a replay");
  const id = idIn(ctx.dialect, 'order', res.json);
  ctx.expectTrue(id !== placed, {
    code: 'LEAK',
    pointer: '/body/id',
    expected: 'a new order',
    received: id,
    message: "the second account was answered with the first account's order",
    exchange: res.exchange,
  });
  ctx.expectEqual(
    '/body/external_id',
    body.external_id,
    (res.json as { external_id?: unknown }).external_id,
    'the new order is the one the second account sent',
  );
});

check('IDEM-16', async (ctx) => {
  // Section 4 idempotency rules and section 1 (objects belong to one mode), as the contract
  // reads them: keys are scoped to account and mode; the other mode's identical key is a new request.
  const { key: testKey, account, catalog } = await ordering(ctx, { live_access: true });
  const liveKey = await ctx.key({ mode: 'live', ...(account ? { account } : {}) });
  const idempotencyKey = newIdempotencyKey();
  const placed = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(testKey, orderBody(ctx, catalog), { idempotencyKey }),
      'placing the test order',
    ),
    'placing the test order',
  );
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(liveKey, body, { idempotencyKey });
  if (!expectSuccess(ctx, res, 'a live request with the key a test request used')) return;
  ctx.expectNoHeader(res, 'Idempotent-Replayed', 'a live order is not a replay of a test order');
  ctx.expectTrue(idIn(ctx.dialect, 'order', res.json) !== placed, {
    code: 'LEAK',
    pointer: '/body/id',
    expected: 'a new live order',
    received: idIn(ctx.dialect, 'order', res.json),
    message: 'the live key was answered with the test order',
    exchange: res.exchange,
  });
});
