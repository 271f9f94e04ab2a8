import {
  centsIn,
  check,
  checksUseOwnAccounts,
  moneyAt,
  pageQuery,
  productsOf,
  valueAt,
} from '../../lib/check/index.js';
import { listOf } from '../schemas/list.js';
import { productSchema } from '../schemas/product.js';
import { together } from '../support/all-at-once.js';
import { ordering } from '../support/ordering.js';
import { TEST_PRODUCTS } from '../support/test-products.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('READ-07', async (ctx) => {
  // Section 4: "GET /catalog/… | catalog:read | Read the catalog."
  const { account } = await ordering(ctx);
  const key = await ctx.key({ scopes: ['catalog:read'], ...(account ? { account } : {}) });
  const res = await ctx.api(key).get(ctx.path('catalogProducts'));
  ctx.expectStatus(res, ctx.dialect.operations.catalogProducts.status);
});

check('READ-08', async (ctx) => {
  // Contract section 2: GET /catalog/products lists the account's products, each {sku, name, unit_price, min_quantity, ships_by_freight}
  // (a profile moves the product's fields, the list envelope and the money format).
  const { key, account } = await ordering(ctx);
  const res = await ctx
    .api(key)
    .get(ctx.path('catalogProducts'), pageQuery(ctx.dialect, { limit: 100 }));
  if (!ctx.expectStatus(res, ctx.dialect.operations.catalogProducts.status)) return;
  const list = ctx.expectShape(
    res.json,
    listOf(ctx.dialect, productSchema(ctx.dialect)),
    '/body',
    res.exchange,
  );
  if (list === undefined || !account) return;
  const data = valueAt(res.json, ctx.dialect.list.items) as unknown[];
  const names = new Map(
    data.map((p) => [valueAt(p, ctx.dialect.answers.product.sku), (p as { name?: unknown }).name]),
  );
  const shown = productsOf(ctx.dialect, data)
    .map((p) => ({ ...p, name: names.get(p.sku) }))
    .sort(bySku);
  const given = [...TEST_PRODUCTS].sort(bySku);
  ctx.expectEqual(
    `/body${ctx.dialect.list.items}`,
    given,
    shown,
    "the catalog is the account's product list",
  );
});

check('READ-09', async (ctx) => {
  // Contract section 2: GET /catalog/products/{sku} reads one product; an unknown one is not_found (section 7).
  const { key, catalog } = await ordering(ctx);
  const product = catalog.products[0];
  if (!product) return ctx.notVerifiable('the catalog is empty');
  // The product and an unknown one, read at once.
  const [res, missing] = await together(
    ctx.api(key).get(ctx.path('catalogProduct', { sku: product.sku })),
    ctx
      .api(key)
      .get(ctx.path('catalogProduct', { sku: `NO-SUCH-${ctx.faker.string.alphanumeric(10)}` })),
  );
  if (ctx.expectStatus(res, ctx.dialect.operations.catalogProduct.status)) {
    const at = ctx.dialect.answers.product;
    ctx.expectShape(res.json, productSchema(ctx.dialect), '/body', res.exchange);
    ctx.expectEqual(
      `/body${at.sku}`,
      product.sku,
      valueAt(res.json, at.sku),
      'the product read is the one asked for',
    );
    ctx.expectEqual(
      `/body${at.unitPrice}`,
      product.unit_price,
      centsIn(moneyAt(ctx.dialect.money, 'prices'), valueAt(res.json, at.unitPrice)),
      'the product has its price',
    );
  }
  ctx.expectProblem(missing, { status: 404, code: 'not_found' });
});

/**
 * Products in the order of their SKUs' characters: any one order does, the same for both lists.
 * Not `localeCompare`, whose collation maps ICU's locale data, megabytes of a run's memory.
 */
function bySku(a: { sku: string }, b: { sku: string }): number {
  return a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0;
}
