import type { CredentialBehaviour } from './auth/credential-behaviour.js';
import type { KeyBehaviour } from './control/keys.js';
import type { DefectName } from './defects/catalogue.js';
import type { RequestCheckBehaviour } from './http/api-hooks.js';
import type { CredentialGuard } from './http/credential-guard.js';
import type { CancelBehaviour } from './routes/orders-cancel.js';
import type { OrderCreateBehaviour } from './routes/orders-create.js';
import type { OrderReadBehaviour } from './routes/orders-read.js';
import type { QuoteBehaviour } from './routes/quotes.js';
import type { WebhookEndpointBehaviour } from './routes/webhook-endpoints.js';
import type { Account } from './store/accounts.js';
import type { Faults, RateLimits, Store } from './store/store.js';

/** What every route and hook of one app shares. One per `buildApp`. */
export interface AppContext {
  readonly store: Store;
  /** `{docs_url}` of problem `type` URIs (§2 error object). */
  readonly docsUrl: string;
  /** Flat shipping charge of every order and quote, in cents (AppOptions.shippingCents; 0 in the reference). */
  readonly shippingCents: number;
  readonly faults: Faults;
  readonly rateLimiter: RateLimits;
  /** Credentials in URLs (§5.6) and their masking in answers. */
  readonly guard: CredentialGuard;
  /** Test-only defect seams; empty unless defects are switched on. */
  readonly hooks: DefectHooks;
  /** Whether a test-only defect switch is on (see defects/catalogue.ts). */
  hasDefect(name: DefectName): boolean;
  /** The account clock (contract §3): real time plus every advance of that account. */
  now(account: Account): number;
}

/**
 * The seams through which the test-only defect catalogue (server/defects/)
 * plugs into the request path: each replaces one step with a defective
 * variant. Empty on a correct server; set only when defects are switched on.
 */
export interface DefectHooks {
  /**
   * Overrides the credential decisions (auth/credential-behaviour.ts `CredentialBehaviour`) of
   * both the token request (routes/token.ts) and the bearer gate of every other route (auth/bearer.ts).
   */
  credentials?: Partial<CredentialBehaviour>;
  /** Overrides decisions of POST /orders (routes/orders-create.ts `OrderCreateBehaviour`, orders/place-order.ts's included). */
  orders?: Partial<OrderCreateBehaviour>;
  /** Overrides decisions of POST /orders/{id}/cancel (routes/orders-cancel.ts `CancelBehaviour`). */
  cancelOrder?: Partial<CancelBehaviour>;
  /** Overrides the credential checks of every request (http/api-hooks.ts `RequestCheckBehaviour`). */
  requestChecks?: Partial<RequestCheckBehaviour>;
  /** Overrides decisions of routes/quotes.ts (`QuoteBehaviour`). */
  quotes?: Partial<QuoteBehaviour>;
  /** Overrides decisions of the control key routes (control/keys.ts `KeyBehaviour`). */
  controlKeys?: Partial<KeyBehaviour>;
  /** Overrides the order lookups of routes/orders-read.ts (`OrderReadBehaviour`), cancel's included. */
  orderReads?: Partial<OrderReadBehaviour>;
  /** Overrides the endpoint limit of routes/webhook-endpoints.ts (`WebhookEndpointBehaviour`). */
  webhookEndpoints?: Partial<WebhookEndpointBehaviour>;
}
