/**
 * The API a check file uses:
 *
 *   import { check } from '../../lib/check/index.js';
 *   check('IDEM-03', async (ctx) => { ... });
 *
 * registers a vitest test named `${id} ${title}` for that catalogue rule.
 */
export type {
  AccountSettings,
  ApiClient,
  Auth,
  CheckContext,
  ControlClient,
  HeaderMatcher,
  HttpResponse,
  Key,
  KeyOptions,
  PlacedOrder,
  Product,
  RequestSpec,
  TestAccount,
} from './context.js';
export { EXTERNAL_ID_MAX, uniqueExternalId } from './external-id.js';
export {
  addressOf,
  cheapestLine,
  goodsTotal,
  linesOf,
  type OrderBody,
  type OrderCatalog,
  type OrderChoices,
  type OrderLine,
  type OrderSpec,
  orderBody,
  orderBodyOf,
  orderSpec,
  productsOf,
  quoteBody,
  quoteBodyOf,
  withAddress,
} from './order-body.js';
export { type CheckOptions, check, checksUseOwnAccounts } from './register.js';
export { newIdempotencyKey, type PostOrderOptions } from './send-order.js';
export type { CheckOutcome, Counterexample, Verdict } from './verdict.js';
