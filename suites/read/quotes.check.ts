import { check, checksUseOwnAccounts, goodsTotal } from '../../lib/check/index.js';
import { QuoteSchema } from '../schemas/quote.js';
import { answeredId, expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { quoteBody } from '../support/quote-body.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-10', async (ctx) => {
  // Section 4: "POST /quotes | catalog:read | Create a quote." and "GET /quotes/{id} | Read a quote."
  const { key, catalog } = await ordering(ctx);
  const created = await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog));
  if (!expectSuccess(ctx, created, 'creating a quote')) return;
  const id = answeredId(ctx, created, 'creating a quote');
  const read = await ctx.api(key).get(ctx.path('quote', { id }));
  if (ctx.expectStatus(read, 200)) {
    ctx.expectEqual(
      '/body/id',
      id,
      (read.json as { id?: unknown } | undefined)?.id,
      'GET /quotes/{id} reads the quote created',
    );
  }
});

check('READ-11', async (ctx) => {
  // Contract section 2: POST /quotes answers 201 {id, items, subtotal, shipping, total, expires_at}.
  const { key, catalog } = await ordering(ctx);
  const items = catalog.products
    .filter((p) => !p.ships_by_freight)
    .slice(0, 2)
    .map((p) => ({ sku: p.sku, quantity: p.min_quantity + 1 }));
  const res = await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog, items));
  ctx.expectStatus(res, 201);
  const quote = ctx.expectShape(res.json, QuoteSchema, '/body', res.exchange);
  if (!quote) return;
  ctx.expectEqual(
    '/body/subtotal/amount',
    goodsTotal(catalog.products, items),
    quote.subtotal.amount,
    'the subtotal is the sum of unit price times quantity',
  );
  ctx.expectEqual(
    '/body/total/amount',
    quote.subtotal.amount + quote.shipping.amount,
    quote.total.amount,
    'the total is subtotal plus shipping',
  );
  ctx.expectTrue(Date.parse(quote.expires_at) > Date.now() - 60_000, {
    code: 'VALUE',
    pointer: '/body/expires_at',
    expected: 'a time in the future',
    received: quote.expires_at,
    message: 'a new quote has already expired',
    exchange: res.exchange,
  });
});
