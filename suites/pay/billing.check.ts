import { check, checksUseOwnAccounts, orderBody } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('PAY-07', async (ctx) => {
  // Section 7 lists payment errors for card billing only; contract section 3: "Invoice billing never fails payment",
  // whatever a card on file would do.
  const cards = ['declined', 'failing', 'missing'] as const;
  // An account for each card at once; the bodies drawn in order; the orders placed at once.
  const accounts = await allAtOnce(cards, async (card) => ({
    card,
    ...(await ordering(ctx, { billing: { method: 'invoice', card } })),
  }));
  const orders = accounts.map(({ card, key, catalog }) => ({
    card,
    key,
    body: orderBody(ctx, catalog),
  }));
  const answers = await allAtOnce(orders, async ({ card, key, body }) => ({
    card,
    res: await ctx.postOrder(key, body),
  }));
  for (const { card, res } of answers) {
    expectSuccess(ctx, res, `an order billed by invoice (card on file: ${card})`);
  }
});

check('PAY-08', async (ctx) => {
  // Section 7 (402 codes are for cards that fail); a saved card that works pays for the order.
  const { key, catalog } = await ordering(ctx, { billing: { method: 'card', card: 'valid' } });
  expectSuccess(
    ctx,
    await ctx.postOrder(key, orderBody(ctx, catalog)),
    'an order paid by a valid card',
  );
});
