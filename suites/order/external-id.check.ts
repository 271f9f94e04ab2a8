import {
  check,
  checksUseOwnAccounts,
  externalIdIn,
  orderBody,
  requireId,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-19', async (ctx) => {
  // Section 4, idempotency rule 4: "A second order with an external_id already used in the account gives 409 duplicate_external_id."
  const { key, catalog } = await ordering(ctx);
  const first = orderBody(ctx, catalog);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, first), 'placing the first order'),
    'placing the first order',
  );
  // A different order under a new Idempotency-Key, only the external_id reused; and the very same
  // body under a new key (a new key says a new order: rule 4, not a replay). Both at once.
  const second = orderBody(ctx, catalog, { externalId: first.external_id });
  const [res, sameBody] = await together(ctx.postOrder(key, second), ctx.postOrder(key, first));
  ctx.expectProblem(res, { status: 409, code: 'duplicate_external_id' });
  ctx.expectProblem(sameBody, { status: 409, code: 'duplicate_external_id' });
  // "Already used": a cancelled order used its external_id all the same.
  requireSuccess(
    await ctx.api(key).post(ctx.path('orderCancel', { id })),
    'cancelling the first order',
  );
  const third = orderBody(ctx, catalog, { externalId: first.external_id });
  ctx.expectProblem(await ctx.postOrder(key, third), {
    status: 409,
    code: 'duplicate_external_id',
  });
  await expectSingleOrder(ctx, key, first.external_id, id, 'a duplicate external_id');
  // The other side of the scope: unique "in the account"; another account may use the same external_id.
  if (!(ctx.has('accounts') && ctx.has('keys'))) {
    ctx.note('another account reusing the external_id is not tried: needs the control API');
    return;
  }
  const other = await ordering(ctx);
  const elsewhere = orderBody(ctx, other.catalog, { externalId: first.external_id });
  expectSuccess(
    ctx,
    await ctx.postOrder(other.key, elsewhere),
    "another account's order reusing the external_id",
  );
});

check('ORDER-20', async (ctx) => {
  // Section 4, idempotency rule 4: "The existing order is fetched with GET /orders/by-external-id/{external_id}."
  const { key, catalog } = await ordering(ctx);
  // A plain id and one as shops write them ("#1042"), which must travel percent-encoded.
  for (const externalId of [uniqueExternalId('SO-2024'), uniqueExternalId('#1042')]) {
    const body = orderBody(ctx, catalog, { externalId });
    const id = idOf(
      ctx,
      requireSuccess(await ctx.postOrder(key, body), 'placing the order'),
      'placing the order',
    );
    const res = await ctx.api(key).get(ctx.path('orderByExternalId', { external_id: externalId }));
    if (!ctx.expectStatus(res, ctx.dialect.operations.orderByExternalId.status)) continue;
    ctx.expectEqual(
      `/body${ctx.dialect.answers.order.id}`,
      id,
      requireId(ctx.dialect, 'order', res.json, 'the order found by external id', res.exchange),
      `GET by external id ${externalId} answers the order placed with it`,
    );
    ctx.expectEqual(
      '/body/external_id',
      externalId,
      externalIdIn(res.json),
      'the order found carries the external_id asked for',
    );
  }
});
