import type {
  AccountSettings,
  CheckContext,
  Key,
  KeyOptions,
  TestAccount,
} from '../../lib/check/index.js';
import { catalogOf, type OrderCatalog, readCatalog } from './catalog.js';
import { GENEROUS_LIMITS, TEST_PRODUCTS } from './test-products.js';

/** A key to order with, the account it belongs to (when the run made one) and what it may order. */
export interface Ordering {
  key: Key;
  /** Undefined when the run has no control API and the partner key is used. */
  account?: TestAccount;
  catalog: OrderCatalog;
}

/**
 * A key in a fresh account of its own when the run can make one (so that
 * clocks, limits and orders are the check's alone), with the suite's test
 * products and generous limits unless `settings` say otherwise. Without the
 * control API: the partner key and its catalog, read through the API; a check
 * that needs particular settings must `need('accounts')` first.
 */
export async function ordering(
  ctx: CheckContext,
  settings: AccountSettings = {},
  keyOptions: Omit<KeyOptions, 'account'> = {},
): Promise<Ordering> {
  if (ctx.has('accounts') && ctx.has('keys')) {
    const limits = { ...GENEROUS_LIMITS, ...settings.limits };
    const products = settings.products ?? [...TEST_PRODUCTS];
    const account = await ctx.newAccount({ ...settings, limits, products });
    const key = await ctx.key({ ...keyOptions, account });
    return { key, account, catalog: catalogOf(products, limits) };
  }
  if (Object.keys(settings).length > 0) ctx.need('accounts', 'keys');
  const key = await ctx.key(keyOptions);
  return { key, catalog: await readCatalog(ctx, key) };
}
