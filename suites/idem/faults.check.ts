import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import {
  API_BASE_PATH,
  check,
  checksUseOwnAccounts,
  HarnessError,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { expectSingleOrder } from '../support/expect-orders.js';
import { answeredId, expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

/** The injected fault must have fired, or the check tests nothing: a set-up error otherwise. */
function requireFault(res: HttpResponse): void {
  if (res.status !== 500) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `the injected fault did not fire: POST /orders answered ${res.status} (evidence #${res.exchange})`,
    );
  }
}

async function faultOnNextOrder(
  ctx: CheckContext,
  accountId: string,
  when: 'before_commit' | 'after_commit',
): Promise<void> {
  await ctx.control.injectFault(accountId, {
    method: 'POST',
    path: API_BASE_PATH + ctx.path('orders'),
    when,
    times: 1,
  });
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-11', async (ctx) => {
  // Section 4, idempotency rule 6: "After a 500 internal_error, the request is retried with the same key."
  // Contract section 3: after_commit stores the order, then answers 500; so the retry meets rule 2:
  // "the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order".
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await faultOnNextOrder(ctx, account.id, 'after_commit');
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  requireFault(await ctx.postOrder(key, body, { idempotencyKey }));
  const retry = await ctx.postOrder(key, body, { idempotencyKey });
  // Rule 2: the order was already placed, so the retry is a replay: 200, Idempotent-Replayed: true, that order.
  if (!ctx.expectStatus(retry, 200)) return;
  ctx.expectHeader(
    retry,
    'idempotent-replayed',
    'true',
    'a retry of an order already placed (idempotency rule 2)',
  );
  const id = answeredId(ctx, retry, 'the retry with the same key');
  await expectSingleOrder(ctx, key, body.external_id, id, 'a 500 after commit and a retry');
});

check('IDEM-12', async (ctx) => {
  // Section 4, idempotency rule 6; contract section 3: before_commit stores nothing, so the retry places the order once.
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  await faultOnNextOrder(ctx, account.id, 'before_commit');
  const body = orderBody(ctx, catalog);
  const idempotencyKey = newIdempotencyKey();
  requireFault(await ctx.postOrder(key, body, { idempotencyKey }));
  const retry = await ctx.postOrder(key, body, { idempotencyKey });
  if (!expectSuccess(ctx, retry, 'the retry with the same key')) return;
  const id = answeredId(ctx, retry, 'the retry with the same key');
  await expectSingleOrder(ctx, key, body.external_id, id, 'a 500 before commit and a retry');
});
