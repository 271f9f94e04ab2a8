import { check, checksUseOwnAccounts, idIn, orderBody, valueAt } from '../../lib/check/index.js';
import { orderSchema } from '../schemas/order.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { expectDetailSays } from './detail-says.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('CANCEL-04', async (ctx) => {
  // Section 3: "production has started … 409 not_cancellable. detail says which."
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  await ctx.control.startProduction(account.id, id);
  const res = await ctx.api(key).post(ctx.path('orderCancel', { id }));
  if (ctx.expectProblem(res, { status: 409, code: 'not_cancellable' })) {
    expectDetailSays(ctx, res, 'production');
  }
});

check('CANCEL-07', async (ctx) => {
  // Section 3: "production has started … 409 not_cancellable. detail says which." A shipped order
  // was produced: shipped straight from received (no start-production step), it is refused all
  // the same, a target that refuses only orders "in production" being wrong.
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  await ctx.control.ship(account.id, id);
  const res = await ctx.api(key).post(ctx.path('orderCancel', { id }));
  if (ctx.expectProblem(res, { status: 409, code: 'not_cancellable' })) {
    expectDetailSays(ctx, res, 'shipped');
  }
});

check('CANCEL-05', async (ctx) => {
  // Section 3: "the order is already cancelled … 409 not_cancellable. detail says which."
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  requireSuccess(await ctx.api(key).post(ctx.path('orderCancel', { id })), 'the first cancel');
  const res = await ctx.api(key).post(ctx.path('orderCancel', { id }));
  if (ctx.expectProblem(res, { status: 409, code: 'not_cancellable' })) {
    expectDetailSays(ctx, res, 'already_cancelled');
  }
});

check('CANCEL-06', async (ctx) => {
  // Section 4: cancel's response body not shown; contract section 2: 200 with the cancelled order.
  const { key, catalog } = await ordering(ctx);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, orderBody(ctx, catalog)), 'placing the order'),
    'placing the order',
  );
  const res = await ctx.api(key).post(ctx.path('orderCancel', { id }));
  ctx.expectStatus(res, ctx.dialect.operations.orderCancel.status);
  ctx.expectShape(res.json, orderSchema(ctx.dialect), '/body', res.exchange);
  const at = ctx.dialect.answers.order;
  const cancelled = ctx.dialect.orderStatuses.cancelled;
  ctx.expectEqual(
    `/body${at.id}`,
    id,
    idIn(ctx.dialect, 'order', res.json),
    'cancel answers the order it cancelled',
  );
  ctx.expectEqual(
    `/body${at.status}`,
    cancelled,
    valueAt(res.json, at.status),
    'the order answered is cancelled',
  );
  const read = await ctx.api(key).get(ctx.path('order', { id }));
  ctx.expectEqual(
    `/body${at.status}`,
    cancelled,
    valueAt(read.json, at.status),
    'GET shows the order cancelled afterwards',
  );
});
