/**
 * Where the API document says "not shown", the reference dialect of the target
 * contract (section 2) decides. A target profile may override any of it.
 * Path templates are relative to the API base and use `{name}` placeholders.
 */
export interface Dialect {
  /** Fixed prefix of keys and tokens: `odp` gives `odp_test_sk_…`, `odp_at_…`. */
  keyPrefix: string;
  /** `{docs_url}` of problem `type` URIs; unset: learned from the first problem seen. */
  docsUrl?: string;
  paths: {
    token: string;
    account: string;
    catalogProducts: string;
    catalogProduct: string;
    quotes: string;
    quote: string;
    orders: string;
    order: string;
    orderByExternalId: string;
    orderCancel: string;
    shipments: string;
    invoice: string;
    webhookEndpoints: string;
    webhookEndpoint: string;
    events: string;
    event: string;
  };
  /** Status of a first successful order creation. */
  orderCreatedStatus: number;
  /**
   * Where `GET /account` shows what section 2 of the API document lists: JSON
   * pointers into its body. The document fixes the object `limits`; every other
   * name is "not shown" (READ-02..05 judge the values, READ-06 the names).
   */
  accountFields: AccountFields;
  /** Where the suite puts what an order body carries (the document shows no body). */
  orderBody: OrderBodyShape;
  /**
   * Where answers show a total, as JSON pointers: the order's and a quote's.
   * The limits apply to the total, which may include shipping, so checks read
   * it rather than add up prices.
   */
  totals: { order: string; quote: string };
}

/**
 * The order body as JSON pointers. `external_id` is fixed by the document
 * (section 4); the rest is "not shown": the array of lines, the SKU and
 * quantity inside a line, and each field of the shipping address.
 */
export interface OrderBodyShape {
  items: string;
  /** Inside one line. */
  sku: string;
  quantity: string;
  /** Into the body, one per address field. */
  address: {
    name: string;
    line1: string;
    line2: string;
    city: string;
    state: string;
    postal_code: string;
    country: string;
  };
}

export const REFERENCE_ORDER_BODY: OrderBodyShape = {
  items: '/items',
  sku: '/sku',
  quantity: '/quantity',
  address: {
    name: '/shipping_address/name',
    line1: '/shipping_address/line1',
    line2: '/shipping_address/line2',
    city: '/shipping_address/city',
    state: '/shipping_address/state',
    postal_code: '/shipping_address/postal_code',
    country: '/shipping_address/country',
  },
};

export interface AccountFields {
  livemode: string;
  billingMethod: string;
  scopes: string;
  /** Under `/limits/` (the document names the object `limits`). */
  maxOrderValue: string;
  maxOrdersPerDay: string;
}

export const REFERENCE_ACCOUNT_FIELDS: AccountFields = {
  livemode: '/livemode',
  billingMethod: '/billing_method',
  scopes: '/scopes',
  maxOrderValue: '/limits/max_order_value',
  maxOrdersPerDay: '/limits/max_orders_per_day',
};

export const API_BASE_PATH = '/api/on-demand/v1';

export const REFERENCE_DIALECT: Dialect = {
  keyPrefix: 'odp',
  paths: {
    token: '/oauth/token',
    account: '/account',
    catalogProducts: '/catalog/products',
    catalogProduct: '/catalog/products/{sku}',
    quotes: '/quotes',
    quote: '/quotes/{id}',
    orders: '/orders',
    order: '/orders/{id}',
    orderByExternalId: '/orders/by-external-id/{external_id}',
    orderCancel: '/orders/{id}/cancel',
    shipments: '/orders/{id}/shipments',
    invoice: '/orders/{id}/invoice',
    webhookEndpoints: '/webhook-endpoints',
    webhookEndpoint: '/webhook-endpoints/{id}',
    events: '/events',
    event: '/events/{id}',
  },
  orderCreatedStatus: 201,
  accountFields: REFERENCE_ACCOUNT_FIELDS,
  orderBody: REFERENCE_ORDER_BODY,
  totals: { order: '/total', quote: '/total' },
};

/** Fills a path template: `pathOf(d, 'order', { id })`. Values are percent-encoded. */
export function pathOf(
  dialect: Dialect,
  name: keyof Dialect['paths'],
  params: Record<string, string> = {},
): string {
  return dialect.paths[name].replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`path ${name} needs {${key}}`);
    return encodeURIComponent(value);
  });
}
