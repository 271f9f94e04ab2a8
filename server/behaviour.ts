import { type CredentialBehaviour, correctCredentials } from './auth/credential-behaviour.js';
import { ROUTE_SCOPES, type RouteScopes } from './auth/route-scopes.js';
import type { AppContext } from './context.js';
import { type KeyBehaviour, keyBehaviour } from './control/keys.js';
import { correctRequestChecks, type RequestCheckBehaviour } from './http/api-hooks.js';
import { type CancelBehaviour, correctCancel } from './routes/orders-cancel.js';
import { correctOrderCreation, type OrderCreateBehaviour } from './routes/orders-create.js';
import { correctOrderReads, type OrderReadBehaviour } from './routes/orders-read.js';
import { correctQuotes, type QuoteBehaviour } from './routes/quotes.js';
import {
  type WebhookEndpointBehaviour,
  webhookEndpointBehaviour,
} from './routes/webhook-endpoints.js';

/**
 * What the server does, as the parts app.ts hands its routes and hooks: each
 * part is the steps of one flow, written beside the flow that calls it. The
 * reference is `correctBehaviour`; the test-only defect catalogue
 * (server/defects/) composes a defective one beside it, once, at start.
 */
export interface Behaviour {
  /** §5, §8: the token request and the bearer gate (auth/). */
  readonly credentials: CredentialBehaviour;
  /** §5.8: the scope each group of routes needs. */
  readonly scopes: RouteScopes;
  /** §5.4, §5.6: the credential checks of every request (http/api-hooks.ts). */
  readonly requestChecks: RequestCheckBehaviour;
  /** §4 POST /orders and its placement (routes/orders-create.ts, orders/place-order.ts). */
  readonly orders: OrderCreateBehaviour;
  /** §3 cancellation (routes/orders-cancel.ts). */
  readonly cancel: CancelBehaviour;
  /** §4 order reads, cancel's lookup included (routes/orders-read.ts). */
  readonly orderReads: OrderReadBehaviour;
  /** §4 quotes (routes/quotes.ts). */
  readonly quotes: QuoteBehaviour;
  /** §6 webhook endpoint limit (routes/webhook-endpoints.ts). */
  readonly webhookEndpoints: WebhookEndpointBehaviour;
  /** Contract §3 control keys (control/keys.ts). */
  readonly keys: KeyBehaviour;
}

/** The reference server's behaviour over one app's store. */
export function correctBehaviour(ctx: AppContext): Behaviour {
  return {
    credentials: correctCredentials(ctx),
    scopes: ROUTE_SCOPES,
    requestChecks: correctRequestChecks(ctx.guard),
    orders: correctOrderCreation(ctx),
    cancel: correctCancel,
    orderReads: correctOrderReads(ctx),
    quotes: correctQuotes(ctx),
    webhookEndpoints: webhookEndpointBehaviour(ctx),
    keys: keyBehaviour(ctx),
  };
}
