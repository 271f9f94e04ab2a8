/**
 * A dialect: how a server answers where the API document says "not shown"
 * (target contract §2 gives the reference dialect). This is the server's own
 * reading of the published profile format (docs/profiles.md, version 2): the
 * server shares nothing with the suite but that contract, so it keeps its
 * own copy of the model. What the document fixes (the paths of its endpoint
 * table, the methods it shows) is no member: DOCUMENT_PATHS. Paths are
 * relative to the API base and use `{name}` placeholders; every other
 * location is a JSON pointer.
 */
export interface Dialect {
  /** Fixed prefix of keys and tokens: `odp` gives `odp_test_sk_…`, `odp_at_…`. */
  keyPrefix: string;
  /** `{docs_url}` of problem `type` URIs, when the profile sets one. */
  docsUrl?: string;
  /** The paths the document does not show (§4): below /catalog, shipments, invoice, one endpoint, one event. */
  paths: Record<DialectPathName, string>;
  accountFields: {
    livemode: string;
    billingMethod: string;
    scopes: string;
    maxOrderValue: string;
    maxOrdersPerDay: string;
  };
  orderBody: BodyShape;
  totals: { order: string; quote: string };
  operations: Record<OperationName, { method: HttpMethod; status: number }>;
  quoteBody: BodyShape;
  /** `events: null`: the endpoint takes no list of event kinds (it gets every kind). */
  webhookEndpointBody: { url: string; events: string | null };
  eventKinds: { orderCreated: string; orderCancelled: string };
  answers: {
    order: { id: string; status: string; lines: string; lineSku: string; lineQuantity: string };
    quote: { id: string };
    product: { sku: string; unitPrice: string; minQuantity: string; shipsByFreight: string };
    webhookEndpoint: { id: string };
    event: { id: string; type: string };
  };
  list: {
    items: string;
    hasMore: string | null;
    /** `null`: the cursor of the next page is the last item's id. */
    nextCursor: string | null;
    cursorParam: string;
    limitParam: string;
    maxLimit: number;
  };
  /**
   * `object`: `{amount: cents, currency}` at these pointers; `cents`: an
   * integer; `decimal`: `"12.34"`. Each place (`totals`, `prices`,
   * `maxOrderValue`) holds what the profile states apart, member by member.
   */
  money: MoneyFormat & { [P in MoneyPlace]?: Partial<MoneyFormat> };
  orderStatuses: { received: string; inProduction: string; shipped: string; cancelled: string };
  /** `errors[]` entries: the member holding the pointer and its form. */
  errors: { member: string; form: 'json-pointer' | 'dot' | 'bracket' };
}

export interface MoneyFormat {
  format: 'object' | 'cents' | 'decimal';
  amount: string;
  currency: string;
}

/**
 * Where money shows: `totals` (of orders, quotes and invoices, a quote's
 * subtotal and shipping), `prices` (a product's unit price, an order line's
 * unit price and amount), `maxOrderValue` (the account's limit).
 */
const MONEY_PLACES = ['totals', 'prices', 'maxOrderValue'] as const;
export type MoneyPlace = (typeof MONEY_PLACES)[number];

/** The money format of one place: what the place states over the format of every place. */
export function moneyAt(money: Dialect['money'], place: MoneyPlace): MoneyFormat {
  return {
    format: money[place]?.format ?? money.format,
    amount: money[place]?.amount ?? money.amount,
    currency: money[place]?.currency ?? money.currency,
  };
}

/** The order (and quote) body: `items` and address fields into the body, `sku` and `quantity` into a line. */
export interface BodyShape {
  items: string;
  sku: string;
  quantity: string;
  address: Record<AddressField, string>;
}

export const ADDRESS_FIELDS = [
  'name',
  'line1',
  'line2',
  'city',
  'state',
  'postal_code',
  'country',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type DialectPathName =
  | 'catalogProducts'
  | 'catalogProduct'
  | 'shipments'
  | 'invoice'
  | 'webhookEndpoint'
  | 'event';

/** The paths of the API document's endpoint table (§4, §6): the same in every dialect. */
export const DOCUMENT_PATHS = {
  token: '/oauth/token',
  account: '/account',
  quotes: '/quotes',
  quote: '/quotes/{id}',
  orders: '/orders',
  order: '/orders/{id}',
  orderByExternalId: '/orders/by-external-id/{external_id}',
  orderCancel: '/orders/{id}/cancel',
  webhookEndpoints: '/webhook-endpoints',
  events: '/events',
} as const;

export type DocumentPathName = keyof typeof DOCUMENT_PATHS;
export type PathName = DialectPathName | DocumentPathName;

export function isDocumentPath(name: string): name is DocumentPathName {
  return Object.hasOwn(DOCUMENT_PATHS, name);
}

/** The template of a path: the document's, or the dialect's. */
export function pathTemplate(dialect: Pick<Dialect, 'paths'>, name: PathName): string {
  return isDocumentPath(name) ? DOCUMENT_PATHS[name] : dialect.paths[name];
}

/**
 * The start the document fixes for a path it does not show in full: `GET
 * /catalog/…` (§4), webhook endpoints under /webhook-endpoints and events
 * under /events (§6). A dialect's path is it or lies below it.
 */
export const DOCUMENT_PATH_PREFIXES: Readonly<Record<DialectPathName, string | undefined>> = {
  catalogProducts: '/catalog',
  catalogProduct: '/catalog',
  shipments: undefined,
  invoice: undefined,
  webhookEndpoint: DOCUMENT_PATHS.webhookEndpoints,
  event: DOCUMENT_PATHS.events,
};

export type OperationName =
  | 'token'
  | 'account'
  | 'catalogProducts'
  | 'catalogProduct'
  | 'quoteCreate'
  | 'quoteRead'
  | 'orderList'
  | 'orderCreate'
  | 'orderRead'
  | 'orderByExternalId'
  | 'orderCancel'
  | 'shipments'
  | 'invoice'
  | 'webhookEndpointCreate'
  | 'webhookEndpointList'
  | 'webhookEndpointRead'
  | 'webhookEndpointDelete'
  | 'eventList'
  | 'eventRead';

/** Which path each operation uses. */
export const OPERATION_PATHS: Record<OperationName, PathName> = {
  token: 'token',
  account: 'account',
  catalogProducts: 'catalogProducts',
  catalogProduct: 'catalogProduct',
  quoteCreate: 'quotes',
  quoteRead: 'quote',
  orderList: 'orders',
  orderCreate: 'orders',
  orderRead: 'order',
  orderByExternalId: 'orderByExternalId',
  orderCancel: 'orderCancel',
  shipments: 'shipments',
  invoice: 'invoice',
  webhookEndpointCreate: 'webhookEndpoints',
  webhookEndpointList: 'webhookEndpoints',
  webhookEndpointRead: 'webhookEndpoint',
  webhookEndpointDelete: 'webhookEndpoint',
  eventList: 'events',
  eventRead: 'event',
};

/** The API document fixes every method but these (§4): a profile may change only them. */
export const METHOD_NOT_SHOWN: ReadonlySet<OperationName> = new Set([
  'webhookEndpointCreate',
  'webhookEndpointList',
  'webhookEndpointRead',
  'webhookEndpointDelete',
  'eventList',
  'eventRead',
]);

const REFERENCE_BODY: BodyShape = {
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

/** What this server speaks with no profile (target contract §2). */
export const REFERENCE_DIALECT: Dialect = {
  keyPrefix: 'odp',
  paths: {
    catalogProducts: '/catalog/products',
    catalogProduct: '/catalog/products/{sku}',
    shipments: '/orders/{id}/shipments',
    invoice: '/orders/{id}/invoice',
    webhookEndpoint: '/webhook-endpoints/{id}',
    event: '/events/{id}',
  },
  accountFields: {
    livemode: '/livemode',
    billingMethod: '/billing_method',
    scopes: '/scopes',
    maxOrderValue: '/limits/max_order_value',
    maxOrdersPerDay: '/limits/max_orders_per_day',
  },
  orderBody: REFERENCE_BODY,
  totals: { order: '/total', quote: '/total' },
  operations: {
    token: { method: 'POST', status: 200 },
    account: { method: 'GET', status: 200 },
    catalogProducts: { method: 'GET', status: 200 },
    catalogProduct: { method: 'GET', status: 200 },
    quoteCreate: { method: 'POST', status: 201 },
    quoteRead: { method: 'GET', status: 200 },
    orderList: { method: 'GET', status: 200 },
    orderCreate: { method: 'POST', status: 201 },
    orderRead: { method: 'GET', status: 200 },
    orderByExternalId: { method: 'GET', status: 200 },
    orderCancel: { method: 'POST', status: 200 },
    shipments: { method: 'GET', status: 200 },
    invoice: { method: 'GET', status: 200 },
    webhookEndpointCreate: { method: 'POST', status: 201 },
    webhookEndpointList: { method: 'GET', status: 200 },
    webhookEndpointRead: { method: 'GET', status: 200 },
    webhookEndpointDelete: { method: 'DELETE', status: 204 },
    eventList: { method: 'GET', status: 200 },
    eventRead: { method: 'GET', status: 200 },
  },
  quoteBody: REFERENCE_BODY,
  webhookEndpointBody: { url: '/url', events: '/events' },
  eventKinds: { orderCreated: 'order.created', orderCancelled: 'order.cancelled' },
  answers: {
    order: {
      id: '/id',
      status: '/status',
      lines: '/items',
      lineSku: '/sku',
      lineQuantity: '/quantity',
    },
    quote: { id: '/id' },
    product: {
      sku: '/sku',
      unitPrice: '/unit_price',
      minQuantity: '/min_quantity',
      shipsByFreight: '/ships_by_freight',
    },
    webhookEndpoint: { id: '/id' },
    event: { id: '/id', type: '/type' },
  },
  list: {
    items: '/data',
    hasMore: '/has_more',
    nextCursor: null,
    cursorParam: 'starting_after',
    limitParam: 'limit',
    maxLimit: 100,
  },
  money: { format: 'object', amount: '/amount', currency: '/currency' },
  orderStatuses: {
    received: 'received',
    inProduction: 'in_production',
    shipped: 'shipped',
    cancelled: 'cancelled',
  },
  errors: { member: 'pointer', form: 'json-pointer' },
};
