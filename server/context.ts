import type { CredentialGuard } from './http/credential-guard.js';
import type { Account } from './store/accounts.js';
import type { Faults, RateLimits, Store } from './store/store.js';

/**
 * What every route and hook of one app shares. One per `buildApp`. It knows
 * nothing of routes or of their behaviour (server/behaviour.ts): app.ts hands
 * each route its own, so this file imports only what lies below the routes.
 */
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
  /** The account clock (contract §3): real time plus every advance of that account. */
  now(account: Account): number;
}
