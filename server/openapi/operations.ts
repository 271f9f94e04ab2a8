import type { OperationName } from '../dialect/model.js';
import type { ApiCode } from '../problems/codes.js';
import type { ScopeName } from './sentences.js';

/**
 * What the API document (and, where it says "not shown", the reference
 * dialect) says of each operation: its purpose in the words of §4, the scope
 * of §5's table (`null`: any valid token; `basic`: the key's Basic
 * credentials), what it takes and answers, and the error codes §7 lists for
 * a request of its kind.
 */
export interface OperationSpec {
  summary: string;
  description: string;
  tag: 'Authentication' | 'Account' | 'Catalog' | 'Quotes' | 'Orders' | 'Webhooks';
  scope: ScopeName | null | 'basic';
  /** The schema of the success answer (a component), or none. */
  answer?: string;
  /** The schema of the request body (a component). */
  body?: string;
  /** Answered with a list: takes the paging parameters. */
  list?: true;
  /** A write (§8: POST, PATCH, DELETE): paused by `read_only` (§7). */
  write?: true;
  /** Error codes beyond those every call may get. */
  codes: readonly ApiCode[];
}

/** §7 codes every call with a bearer token may get, whatever it asks (§5.1-§5.3, §5.6, §5.9, §5.10, §8). */
export const EVERY_CALL: readonly ApiCode[] = [
  'credentials_in_url',
  'unauthorized',
  'invalid_token',
  'token_expired',
  'ip_not_allowed',
  'api_not_enabled',
  'sandbox_not_enabled',
  // A Secret Key in a body (§5.4) and a bad query parameter are refused with 422 (target contract §2).
  'validation_failed',
  'rate_limited',
  'internal_error',
  'api_unavailable',
];

const PLACE: readonly ApiCode[] = [
  'idempotency_key_required',
  'card_declined',
  'authentication_required',
  'payment_method_required',
  'payment_failed',
  'partner_suspended',
  'idempotency_conflict',
  'duplicate_external_id',
  'account_incomplete',
  'unsupported_media_type',
  'limit_exceeded',
];

export const OPERATION_SPECS: Readonly<Record<OperationName, OperationSpec>> = {
  token: {
    summary: 'Exchange a key for an access token',
    description:
      'Exchange a key for an access token (§4). Header `Authorization: Basic <base64(AccessKeyID:SecretKey)>`, `Content-Type: application/x-www-form-urlencoded`. The Secret Key is sent only in the Basic header of the token request; a Secret Key in the request body is refused (§5.4). At most 20 token requests a minute per key (§5.5).',
    tag: 'Authentication',
    scope: 'basic',
    answer: 'AccessToken',
    body: 'TokenRequest',
    codes: [],
  },
  account: {
    summary: 'Read the partner account',
    description:
      "Read the partner account (§4): whether the key is live, the billing method, the order limits (object `limits`) and the key's scopes (§2). Needs any valid token, whatever its scopes (§4).",
    tag: 'Account',
    scope: null,
    answer: 'Account',
    codes: [],
  },
  catalogProducts: {
    summary: 'List the catalog',
    description:
      "Read the catalog (§4 `GET /catalog/…`): the account's product list. The exact paths of the catalog are not shown; these are the dialect's.",
    tag: 'Catalog',
    scope: 'catalog:read',
    answer: 'ProductList',
    list: true,
    codes: [],
  },
  catalogProduct: {
    summary: 'Read a product of the catalog',
    description:
      "Read the catalog (§4 `GET /catalog/…`): one product of the account's product list.",
    tag: 'Catalog',
    scope: 'catalog:read',
    answer: 'Product',
    codes: ['not_found'],
  },
  quoteCreate: {
    summary: 'Create a quote',
    description:
      "Create a quote (§4 `POST /quotes`). Request and response bodies are not shown in the API document; these are the dialect's. New quotes are paused in `read_only` (§7).",
    tag: 'Quotes',
    scope: 'catalog:read',
    answer: 'Quote',
    body: 'QuoteBody',
    write: true,
    codes: ['unsupported_media_type', 'partner_suspended'],
  },
  quoteRead: {
    summary: 'Read a quote',
    description: 'Read a quote (§4 `GET /quotes/{id}`).',
    tag: 'Quotes',
    scope: 'catalog:read',
    answer: 'Quote',
    codes: ['not_found'],
  },
  orderList: {
    summary: 'List orders',
    description: 'List orders (§4 `GET /orders`), newest first, in the mode of the key (§1).',
    tag: 'Orders',
    scope: 'orders:read',
    answer: 'OrderList',
    list: true,
    codes: [],
  },
  orderCreate: {
    summary: 'Place an order',
    description:
      "Place an order (§4 `POST /orders`). Header `Idempotency-Key` is required, up to 255 characters. Body: must contain `external_id`, unique per account; every SKU on the account's product list, each quantity at least the product's minimum, the address in the US, no freight-shipped product, within the account's maximum order value and orders per day (§4 rules 1-5). Idempotency (§4): the same request with the same key, once the order was placed, answers 200 with header `Idempotent-Replayed: true` and the existing order; the same key with a different body gives 409 `idempotency_conflict`; after a 402 no order exists and the order is sent again with a new key; after a 500 `internal_error` the request is retried with the same key.",
    tag: 'Orders',
    scope: 'orders:write',
    answer: 'Order',
    body: 'OrderBody',
    write: true,
    codes: PLACE,
  },
  orderRead: {
    summary: 'Read an order',
    description: 'Read an order (§4 `GET /orders/{id}`).',
    tag: 'Orders',
    scope: 'orders:read',
    answer: 'Order',
    codes: ['not_found'],
  },
  orderByExternalId: {
    summary: 'Read an order by its external_id',
    description:
      'Read an order by its `external_id` (§4 `GET /orders/by-external-id/{external_id}`): how the existing order is fetched after 409 `duplicate_external_id` (§4 idempotency rule 4).',
    tag: 'Orders',
    scope: 'orders:read',
    answer: 'Order',
    codes: ['not_found'],
  },
  orderCancel: {
    summary: 'Cancel an order',
    description:
      'Cancel an order (§4 `POST /orders/{id}/cancel`, §3): within the 24-hour window, production not started, order not already cancelled. Otherwise 409 `not_cancellable`, whose `detail` says which.',
    tag: 'Orders',
    scope: 'orders:write',
    answer: 'Order',
    write: true,
    codes: ['not_found', 'not_cancellable'],
  },
  shipments: {
    summary: 'Read the shipments of an order',
    description:
      'Read shipments (§4, "shipments of an order"). The exact path is not shown in the API document; this is the dialect\'s.',
    tag: 'Orders',
    scope: 'orders:read',
    answer: 'ShipmentList',
    list: true,
    codes: ['not_found'],
  },
  invoice: {
    summary: 'Read the invoice of an order',
    description:
      'Read the invoice (§4, "invoice of an order"). The exact path is not shown in the API document; this is the dialect\'s. 404 `not_found` until one exists.',
    tag: 'Orders',
    scope: 'orders:read',
    answer: 'Invoice',
    codes: ['not_found'],
  },
  webhookEndpointCreate: {
    summary: 'Add a webhook endpoint',
    description:
      "Manage webhook endpoints (§4, §6): at most 5 webhook endpoints per mode; adding a sixth gives 422 `limit_exceeded`. The methods of `/webhook-endpoints` are not shown in the API document; this is the dialect's.",
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    answer: 'WebhookEndpoint',
    body: 'WebhookEndpointBody',
    write: true,
    codes: ['unsupported_media_type', 'limit_exceeded'],
  },
  webhookEndpointList: {
    summary: 'List webhook endpoints',
    description: 'Manage webhook endpoints (§4, §6): the endpoints of the mode.',
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    answer: 'WebhookEndpointList',
    list: true,
    codes: [],
  },
  webhookEndpointRead: {
    summary: 'Read a webhook endpoint',
    description: 'Manage webhook endpoints (§4, §6): one endpoint.',
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    answer: 'WebhookEndpoint',
    codes: ['not_found'],
  },
  webhookEndpointDelete: {
    summary: 'Delete a webhook endpoint',
    description:
      'Manage webhook endpoints (§4, §6): delete one; deleted endpoints do not count toward the five.',
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    write: true,
    codes: ['not_found'],
  },
  eventList: {
    summary: 'List events',
    description:
      "Read events (§4, §6), newest first, optionally of one kind. Event kinds and payloads are not shown in the API document; these are the dialect's.",
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    answer: 'EventList',
    list: true,
    codes: [],
  },
  eventRead: {
    summary: 'Read an event',
    description: 'Read events (§4, §6): one event.',
    tag: 'Webhooks',
    scope: 'webhooks:manage',
    answer: 'Event',
    codes: ['not_found'],
  },
};
