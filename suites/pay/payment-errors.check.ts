import type { AccountSettings, CheckContext, HttpResponse } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, orderBody } from '../../lib/check/index.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { ordering } from '../support/ordering.js';

type Card = NonNullable<AccountSettings['billing']>['card'];

/** The bank's reason the suite gives a declining card (control protocol `decline_code`). */
const DECLINE_CODE = 'insufficient_funds';

/** Section 7: what each card behaviour of the control protocol (contract section 3) must answer. */
const PAYMENT_ERRORS: { card: NonNullable<Card>; code: string }[] = [
  { card: 'declined', code: 'card_declined' },
  { card: 'authentication_required', code: 'authentication_required' },
  { card: 'missing', code: 'payment_method_required' },
  { card: 'failing', code: 'payment_failed' },
];

/** An order placed by a card-billed account whose card behaves as `card`; the answer and the external_id sent. */
async function payWith(
  ctx: CheckContext,
  card: NonNullable<Card>,
): Promise<{
  res: HttpResponse;
  externalId: string;
  key: Awaited<ReturnType<typeof ordering>>['key'];
}> {
  const { key, catalog } = await ordering(ctx, {
    billing: { method: 'card', card, decline_code: DECLINE_CODE },
  });
  const body = orderBody(ctx, catalog);
  return { res: await ctx.postOrder(key, body), externalId: body.external_id, key };
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('PAY-01', async (ctx) => {
  // Section 7: "402 card_declined: Card declined. decline_code has the reason."
  const { res } = await payWith(ctx, 'declined');
  if (!ctx.expectProblem(res, { status: 402, code: 'card_declined' })) return;
  ctx.expectEqual(
    '/body/decline_code',
    DECLINE_CODE,
    (res.json as { decline_code?: unknown }).decline_code,
    "decline_code is the bank's reason",
  );
});

check('PAY-02', async (ctx) => {
  // Section 7: "402 authentication_required: The bank wants extra approval."
  const { res } = await payWith(ctx, 'authentication_required');
  ctx.expectProblem(res, { status: 402, code: 'authentication_required' });
});

check('PAY-03', async (ctx) => {
  // Section 7: "402 payment_method_required: The account bills a card but none is saved with permission for automatic charges."
  const { res } = await payWith(ctx, 'missing');
  ctx.expectProblem(res, { status: 402, code: 'payment_method_required' });
});

check('PAY-04', async (ctx) => {
  // Section 7: "402 payment_failed: Payment could not be completed."
  const { res } = await payWith(ctx, 'failing');
  ctx.expectProblem(res, { status: 402, code: 'payment_failed' });
});

check('PAY-05', async (ctx) => {
  // Section 2, error object: "decline_code … Only on card_declined".
  for (const { card, code } of PAYMENT_ERRORS.filter((e) => e.code !== 'card_declined')) {
    const { res } = await payWith(ctx, card);
    if (!ctx.expectProblem(res, { status: 402, code })) continue;
    ctx.expectTrue(!('decline_code' in (res.json as object)), {
      code: 'PROBLEM',
      pointer: '/body/decline_code',
      expected: '(absent)',
      received: (res.json as { decline_code?: unknown }).decline_code,
      message: `${code} carries decline_code, which belongs only to card_declined`,
      exchange: res.exchange,
    });
  }
});

check('PAY-06', async (ctx) => {
  // Section 4, idempotency rule 5: "After a 402 payment error no order exists"; section 7: "No order created".
  for (const { card, code } of PAYMENT_ERRORS) {
    const { res, externalId, key } = await payWith(ctx, card);
    if (res.status !== 402) {
      ctx.note(`a ${card} card answered ${res.status}, not 402 ${code}: PAY-01..04 judge that`);
      continue;
    }
    await expectNoOrder(ctx, key, externalId, `402 ${code}`);
  }
});
