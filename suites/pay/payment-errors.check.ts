import type { AccountSettings, CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, orderBody } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrders } from '../support/expect-orders.js';
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

/** An order placed by a card-billed account: the answer, the external_id sent and the account's key. */
interface Paid {
  res: HttpResponse;
  externalId: string;
  key: Key;
}

/** An order placed by a card-billed account whose card behaves as `card`. */
function payWith(ctx: CheckContext, card: NonNullable<Card>): Promise<Paid> {
  return payWithEach(ctx, [card]).then(([paid]) => paid as Paid);
}

/**
 * `payWith` for each card, at once: the accounts made together, the order
 * bodies drawn in the cards' order (the same seed, the same bodies), the
 * orders sent together.
 */
async function payWithEach(
  ctx: CheckContext,
  cards: readonly NonNullable<Card>[],
): Promise<Paid[]> {
  const orderings = await allAtOnce(cards, (card) =>
    ordering(ctx, { billing: { method: 'card', card, decline_code: DECLINE_CODE } }),
  );
  const bodies = orderings.map(({ catalog }) => orderBody(ctx, catalog));
  return allAtOnce(orderings, async ({ key }, i) => {
    const body = bodies[i] as (typeof bodies)[number];
    return { res: await ctx.postOrder(key, body), externalId: body.external_id, key };
  });
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
    res,
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
  const errors = PAYMENT_ERRORS.filter((e) => e.code !== 'card_declined');
  const paid = await payWithEach(
    ctx,
    errors.map(({ card }) => card),
  );
  for (const [i, { code }] of errors.entries()) {
    const { res } = paid[i] as Paid;
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
  const paid = await payWithEach(
    ctx,
    PAYMENT_ERRORS.map(({ card }) => card),
  );
  const refused = PAYMENT_ERRORS.flatMap(({ card, code }, i) => {
    const { res, externalId, key } = paid[i] as Paid;
    if (res.status === 402) return [{ key, externalId, after: `402 ${code}` }];
    ctx.note(`a ${card} card answered ${res.status}, not 402 ${code}: PAY-01..04 judge that`);
    return [];
  });
  await expectNoOrders(ctx, refused);
});
