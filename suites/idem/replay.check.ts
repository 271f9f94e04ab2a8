import {
  cheapestLine,
  check,
  checksUseOwnAccounts,
  idIn,
  newIdempotencyKey,
  orderBody,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { expectNoOrder, expectSingleOrder } from '../support/expect-orders.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-06', async (ctx) => {
  // Section 4, idempotency rule 2: "the response is 200 with header Idempotent-Replayed: true".
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  requireSuccess(await ctx.postOrder(key, body, { idempotencyKey }), 'placing the order');
  const replay = await ctx.postOrder(key, body, { idempotencyKey });
  ctx.expectStatus(replay, 200);
  ctx.expectHeader(replay, 'Idempotent-Replayed', 'true');
});

check('IDEM-07', async (ctx) => {
  // Section 4, idempotency rule 2: "… and the existing order, not a second order".
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  const first = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body, { idempotencyKey }), 'placing the order'),
    'placing the order',
  );
  const replay = await ctx.postOrder(key, body, { idempotencyKey });
  const replayed = idIn(ctx.dialect, 'order', replay.json);
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.id}`,
    first,
    replayed,
    'a replay answers the order the first request placed',
    replay,
  );
  await expectSingleOrder(ctx, key, body.external_id, first, 'a replay');
});

check('IDEM-08', async (ctx) => {
  // Section 4, idempotency rule 2 ("the same request"), as the contract reads it: the same
  // method, path and JSON body up to key order and white space.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  const first = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(key, body, { idempotencyKey, rawBody: JSON.stringify(body) }),
      'placing the order',
    ),
    'placing the order',
  );
  const reordered = `\n${JSON.stringify(reverseKeys(body), null, 3)}\t\n`;
  const replay = await ctx.postOrder(key, body, { idempotencyKey, rawBody: reordered });
  ctx.expectStatus(replay, 200);
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.id}`,
    first,
    idIn(ctx.dialect, 'order', replay.json),
    'the same JSON with other key order and white space replays the first order',
    replay,
  );
});

check('IDEM-09', async (ctx) => {
  // Section 4, idempotency rule 3: "The same key with a different body gives 409 idempotency_conflict."
  const { key, catalog } = await ordering(ctx);
  const idempotencyKey = newIdempotencyKey();
  const body = orderBody(ctx, catalog);
  const id = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body, { idempotencyKey }), 'placing the order'),
    'placing the order',
  );
  // A different order under the same key: a target that ignored the key would place it.
  const other = orderBody(ctx, catalog, { externalId: uniqueExternalId('ct-conflict') });
  // And the same external_id with one more of the product and another address: still a different
  // body, so a target that compares only the external_id would wrongly replay it.
  const line = cheapestLine(catalog.products);
  const moved = orderBody(ctx, catalog, {
    externalId: body.external_id,
    items: [{ ...line, quantity: line.quantity + 1 }],
  });
  const [res, sameExternalId] = await together(
    ctx.postOrder(key, other, { idempotencyKey }),
    ctx.postOrder(key, moved, { idempotencyKey }),
  );
  ctx.expectProblem(res, { status: 409, code: 'idempotency_conflict' });
  ctx.expectProblem(sameExternalId, { status: 409, code: 'idempotency_conflict' });
  await expectNoOrder(ctx, key, other.external_id, 'an idempotency conflict');
  await expectSingleOrder(ctx, key, body.external_id, id, 'an idempotency conflict');
});

check('IDEM-17', async (ctx) => {
  // Section 4, idempotency rules 2 and 6, as the contract reads them: records are kept at least 24 hours.
  const { key, account, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  const first = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body, { idempotencyKey }), 'placing the order'),
    'placing the order',
  );
  await ctx.advanceClock(account ?? ctx.notVerifiable('needs an account of its own'), 23 * 3600);
  const replay = await ctx.postOrder(key, body, { idempotencyKey });
  ctx.expectStatus(replay, 200);
  ctx.expectHeader(replay, 'Idempotent-Replayed', 'true');
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.id}`,
    first,
    idIn(ctx.dialect, 'order', replay.json),
    'a replay 23 hours later answers the same order',
    replay,
  );
});

/** The same JSON value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}
