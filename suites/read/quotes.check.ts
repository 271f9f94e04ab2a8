import {
  centsIn,
  check,
  checksUseOwnAccounts,
  goodsTotal,
  moneyAt,
  moneyOf,
  quoteBody,
  requireId,
  valueAt,
} from '../../lib/check/index.js';
import { quoteSchema } from '../schemas/quote.js';
import { answeredId, expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-10', async (ctx) => {
  // Section 4: "POST /quotes | catalog:read | Create a quote." and "GET /quotes/{id} | Read a quote."
  const { key, catalog } = await ordering(ctx);
  const created = await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog));
  requireQuoteBodyTaken(ctx, created, 'creating a quote');
  if (!expectSuccess(ctx, created, 'creating a quote')) return;
  const id = answeredId(ctx, created, 'creating a quote', 'quote');
  const read = await ctx.api(key).get(ctx.path('quote', { id }));
  if (ctx.expectStatus(read, ctx.dialect.operations.quoteRead.status)) {
    const shown = requireId(ctx.dialect, 'quote', read.json, 'the quote read', read.exchange);
    ctx.expectEqual(
      `/body${ctx.dialect.answers.quote.id}`,
      id,
      shown,
      'GET /quotes/{id} reads the quote created',
    );
  }
});

check('READ-11', async (ctx) => {
  // Contract section 2: POST /quotes answers 201 {id, items, subtotal, shipping, total, expires_at}
  // (a profile moves the status, id and total and gives the money format).
  const { key, catalog } = await ordering(ctx);
  const items = catalog.products
    .filter((p) => !p.ships_by_freight)
    .slice(0, 2)
    .map((p) => ({ sku: p.sku, quantity: p.min_quantity + 1 }));
  const res = await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog, items));
  requireQuoteBodyTaken(ctx, res, 'creating a quote');
  ctx.expectStatus(res, ctx.dialect.operations.quoteCreate.status);
  if (ctx.expectShape(res.json, quoteSchema(ctx.dialect), '/body', res.exchange) === undefined)
    return;
  const money = moneyAt(ctx.dialect.money, 'totals');
  const cents = (pointer: string) => centsIn(money, valueAt(res.json, pointer)) ?? 0;
  const subtotal = cents('/subtotal');
  ctx.expectEqual(
    '/body/subtotal',
    moneyOf(money, goodsTotal(catalog.products, items)),
    valueAt(res.json, '/subtotal'),
    'the subtotal is the sum of unit price times quantity',
  );
  ctx.expectEqual(
    `/body${ctx.dialect.totals.quote}`,
    moneyOf(money, subtotal + cents('/shipping')),
    valueAt(res.json, ctx.dialect.totals.quote),
    'the total is subtotal plus shipping',
  );
  const expires = valueAt(res.json, '/expires_at');
  ctx.expectTrue(Date.parse(String(expires)) > Date.now() - 60_000, {
    code: 'VALUE',
    pointer: '/body/expires_at',
    expected: 'a time in the future',
    received: expires,
    message: 'a new quote has already expired',
    exchange: res.exchange,
  });
});
