import type { Product } from '../control/types.js';
import type { Dialect } from '../target/dialect.js';
import { HarnessError } from '../violations/harness-error.js';
import { listPage, pageQuery, succeeded } from './answers.js';
import type { ApiClient } from './context-api.js';
import { productsOf } from './order-body.js';

/**
 * What a key may order, read through the API (contract section 2, `GET
 * /catalog/products`, one page of up to 100): how a run without the control
 * API learns its products. A refused read is a set-up failure (READ checks
 * judge the catalog); an envelope not where the profile says is a dialect gap.
 */
export async function listedProducts(client: ApiClient, dialect: Dialect): Promise<Product[]> {
  const res = await client.get(dialect.paths.catalogProducts, pageQuery(dialect, { limit: 100 }));
  if (!succeeded(dialect, 'catalogProducts', res.status)) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `could not read the catalog to build an order: HTTP ${res.status} (evidence #${res.exchange})`,
    );
  }
  const sku = { pointer: dialect.answers.product.sku, field: 'dialect.answers.product.sku' };
  return productsOf(dialect, listPage(dialect, res.json, sku, res.exchange).items);
}
