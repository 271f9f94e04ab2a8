/**
 * The API a check file uses, and the suites' one door into the engine:
 *
 *   import { check } from '../../lib/check/index.js';
 *   check('IDEM-03', async (ctx) => { ... });
 *
 * registers a vitest test named `${id} ${title}` for that catalogue rule.
 * Files under suites/ import from lib/ only through this module (Biome's
 * noRestrictedImports in biome.json, and test/engine/rate-policy.test.ts).
 */

export {
  DOCUMENTED_LIMITS,
  type RequestClass,
  requestClass,
  retryAfterSeconds,
  WINDOW_SECONDS,
} from '../client/rate-limits.js';
export { escapeToken, put, unescapeToken, valueAt } from '../evidence/json-pointer.js';
export type {
  Dialect,
  HttpMethod,
  MoneyFormat,
  OperationName,
  OrderBodyShape,
  PathName,
} from '../target/dialect.js';
export {
  API_BASE_PATH,
  METHOD_NOT_SHOWN,
  moneyAt,
  pathTemplate,
} from '../target/dialect.js';
export type { DialectSeen } from '../target/run-config.js';
export { escapeRegExp } from '../text/escape-regexp.js';
export type { Verdict } from '../verdict/words.js';
export type { Condition } from '../violations/condition.mjs';
export { HarnessError, NotVerifiable } from '../violations/harness-error.js';
export { answerHolds } from './answer-holds.js';
export {
  type AnswerKind,
  centsIn,
  dialectGap,
  entryPointer,
  externalIdIn,
  idIn,
  itemIdOf,
  listPage,
  moneyOf,
  pageQuery,
  pointerInForm,
  requireId,
  succeeded,
} from './answers.js';
export { listedProducts } from './catalog-read.js';
export type { CheckOutcome, Counterexample } from './check-outcome.js';
export type {
  AccountSettings,
  ApiClient,
  Auth,
  Charge,
  CheckContext,
  ControlClient,
  HeaderMatcher,
  HttpResponse,
  Key,
  KeyOptions,
  LaneOptions,
  PlacedOrder,
  PostOrderOptions,
  Product,
  Racer,
  RequestSpec,
  TestAccount,
} from './context-api.js';
export { EXTERNAL_ID_MAX, uniqueExternalId } from './external-id.js';
export { walkList } from './list-walk.js';
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
export { burstInFlight } from './run-shared.js';
export { newIdempotencyKey } from './send-order.js';
export type { UsAddress } from './us-address.js';
