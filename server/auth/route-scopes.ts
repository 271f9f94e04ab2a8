import type { Scope } from '../domain/scopes.js';

/**
 * §5.8 and the §4 scope table: the scope each group of API routes needs.
 * `null`: any valid token, whatever its scopes (contract §2: `GET /account`).
 */
export interface RouteScopes {
  readonly account: Scope | null;
  readonly catalog: Scope | null;
  readonly quotes: Scope | null;
  readonly createOrder: Scope | null;
  readonly readOrders: Scope | null;
  readonly cancelOrder: Scope | null;
  /** The list and creation of webhook endpoints. */
  readonly webhookEndpoints: Scope | null;
  /** One webhook endpoint: its read and its delete. */
  readonly webhookEndpoint: Scope | null;
  /** The event list. */
  readonly events: Scope | null;
  /** One event. */
  readonly event: Scope | null;
}

export type ScopedRoutes = keyof RouteScopes;

export const ROUTE_SCOPES: RouteScopes = Object.freeze({
  account: null,
  catalog: 'catalog:read',
  quotes: 'catalog:read',
  createOrder: 'orders:write',
  readOrders: 'orders:read',
  cancelOrder: 'orders:write',
  webhookEndpoints: 'webhooks:manage',
  webhookEndpoint: 'webhooks:manage',
  events: 'webhooks:manage',
  event: 'webhooks:manage',
});
