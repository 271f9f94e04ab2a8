import type { DefectName } from './defects/catalogue.js';
import type { FaultRegistry } from './faults/registry.js';
import type { CredentialGuard } from './http/credential-guard.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { Account } from './store/accounts.js';
import type { Store } from './store/index.js';

/** What every route and hook of one app shares. One per `buildApp`. */
export interface AppContext {
  readonly store: Store;
  /** `{docs_url}` of problem `type` URIs (§2 error object). */
  readonly docsUrl: string;
  readonly faults: FaultRegistry;
  readonly rateLimiter: RateLimiter;
  /** Credentials in URLs (§5.6) and their masking in answers. */
  readonly guard: CredentialGuard;
  /** Whether a test-only defect switch is on (see defects/catalogue.ts). */
  hasDefect(name: DefectName): boolean;
  /** The account clock (contract §3): real time plus every advance of that account. */
  now(account: Account): number;
}
