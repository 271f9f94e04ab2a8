import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { listOf } from '../schemas/list.js';
import { ProductSchema } from '../schemas/product.js';
import { ordering } from '../support/ordering.js';
import { TEST_PRODUCTS } from '../support/test-products.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-07', async (ctx) => {
  // Section 4: "GET /catalog/… | catalog:read | Read the catalog."
  const { account } = await ordering(ctx);
  const key = await ctx.key({ scopes: ['catalog:read'], ...(account ? { account } : {}) });
  ctx.expectStatus(await ctx.api(key).get(ctx.path('catalogProducts')), 200);
});

check('READ-08', async (ctx) => {
  // Contract section 2: GET /catalog/products lists the account's products, each {sku, name, unit_price, min_quantity, ships_by_freight}.
  const { key, account } = await ordering(ctx);
  const res = await ctx.api(key).get(ctx.path('catalogProducts'), { limit: '100' });
  if (!ctx.expectStatus(res, 200)) return;
  const list = ctx.expectShape(res.json, listOf(ProductSchema), '/body', res.exchange);
  if (!list || !account) return;
  const shown = list.data
    .map((p) => ({
      sku: p.sku,
      name: p.name,
      unit_price: p.unit_price.amount,
      min_quantity: p.min_quantity,
      ships_by_freight: p.ships_by_freight,
    }))
    .sort((a, b) => a.sku.localeCompare(b.sku));
  const given = [...TEST_PRODUCTS].sort((a, b) => a.sku.localeCompare(b.sku));
  ctx.expectEqual('/body/data', given, shown, "the catalog is the account's product list");
});

check('READ-09', async (ctx) => {
  // Contract section 2: GET /catalog/products/{sku} reads one product; an unknown one is not_found (section 7).
  const { key, catalog } = await ordering(ctx);
  const product = catalog.products[0];
  if (!product) return ctx.notVerifiable('the catalog is empty');
  const res = await ctx.api(key).get(ctx.path('catalogProduct', { sku: product.sku }));
  if (ctx.expectStatus(res, 200)) {
    const shown = ctx.expectShape(res.json, ProductSchema, '/body', res.exchange);
    ctx.expectEqual('/body/sku', product.sku, shown?.sku, 'the product read is the one asked for');
    ctx.expectEqual(
      '/body/unit_price/amount',
      product.unit_price,
      shown?.unit_price.amount,
      'the product has its price',
    );
  }
  const missing = await ctx
    .api(key)
    .get(ctx.path('catalogProduct', { sku: `NO-SUCH-${ctx.faker.string.alphanumeric(10)}` }));
  ctx.expectProblem(missing, { status: 404, code: 'not_found' });
});
