/**
 * Where the API document says "not shown", the reference dialect of the target
 * contract (section 2) decides. A target profile may override any of it, and
 * only that: what the document fixes (the paths of its endpoint table, the
 * methods it shows, codes, statuses of errors, headers, `external_id`) is no
 * member here, so no profile can move it and every check holds a target to it.
 * Path templates are relative to the API base and use `{name}` placeholders.
 */
export interface Dialect {
  /** Fixed prefix of keys and tokens: `odp` gives `odp_test_sk_…`, `odp_at_…`. */
  keyPrefix: string;
  /** `{docs_url}` of problem `type` URIs; unset: learned from the first problem seen. */
  docsUrl?: string;
  /**
   * The paths the document does not show (section 4): below the `/catalog/`
   * prefix, the shipments and invoice of an order, one webhook endpoint (under
   * `/webhook-endpoints`) and one event (under `/events`). The others are
   * DOCUMENT_PATHS; `pathOf` fills either.
   */
  paths: DialectPaths;
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
  /**
   * Method and success status of each operation (profile v2). The profile may
   * change a method only where the document does not fix it (webhook
   * endpoints and events); it may change any success status.
   */
  operations: Record<OperationName, Operation>;
  /** Where the quote body (`POST /quotes`) puts lines and address: like an order body. */
  quoteBody: OrderBodyShape;
  /** The body of a webhook endpoint creation (profile v2). */
  webhookEndpointBody: WebhookEndpointBodyShape;
  /** Names of the event kinds the suite subscribes to and looks for (profile v2). */
  eventKinds: EventKinds;
  /** Where answers show what the suite reads, as JSON pointers (profile v2). */
  answers: AnswerPointers;
  /** The list envelope and its paging parameters (profile v2). */
  list: ListEnvelope;
  /**
   * How answers show money (profile v2): one format for every place, which
   * totals, prices and the account's maximum order value may each override
   * (`moneyAt` reads the format of one place).
   */
  money: MoneyFormats;
  /** The names of the order states the suite needs (profile v2). */
  orderStatuses: OrderStatuses;
  /** How `errors[]` entries of a 422 point at a field of the request body (profile v2). */
  errors: ErrorPointers;
}

interface DialectPaths {
  catalogProducts: string;
  catalogProduct: string;
  shipments: string;
  invoice: string;
  webhookEndpoint: string;
  event: string;
}

/**
 * The paths of the API document's endpoint table (section 4; section 6 for
 * webhook endpoints and events): never a dialect choice. A target that serves
 * one elsewhere breaks the document, and the checks say so.
 */
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
export type DialectPathName = keyof DialectPaths;
/** Every path the suite sends to: the document's and the dialect's. */
export type PathName = DocumentPathName | DialectPathName;

/**
 * Where the document fixes the start of a path it does not show in full:
 * `GET /catalog/…` (section 4), webhook endpoints "managed under
 * /webhook-endpoints" and events "read under /events" (section 6). A
 * dialect's path is the prefix itself or goes on below it (`/` or `?`).
 */
export const DOCUMENT_PATH_PREFIXES: Readonly<Record<DialectPathName, string | undefined>> = {
  catalogProducts: '/catalog',
  catalogProduct: '/catalog',
  shipments: undefined,
  invoice: undefined,
  webhookEndpoint: DOCUMENT_PATHS.webhookEndpoints,
  event: DOCUMENT_PATHS.events,
};

/** Whether a dialect path keeps the start the document fixes for it. */
export function keepsDocumentPrefix(name: DialectPathName, template: string): boolean {
  const prefix = DOCUMENT_PATH_PREFIXES[name];
  return (
    prefix === undefined ||
    template === prefix ||
    template.startsWith(`${prefix}/`) ||
    template.startsWith(`${prefix}?`)
  );
}

export function isDocumentPath(name: string): name is DocumentPathName {
  return Object.hasOwn(DOCUMENT_PATHS, name);
}

/**
 * Every operation the suite performs. `method` is fixed by the API document
 * (section 4) for all but the webhook endpoint and event operations: there
 * the dialect holds the document's method, and no profile changes it.
 */
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

/** The operations whose method the API document leaves "not shown" (section 4). */
export const METHOD_NOT_SHOWN: readonly OperationName[] = [
  'webhookEndpointCreate',
  'webhookEndpointList',
  'webhookEndpointRead',
  'webhookEndpointDelete',
  'eventList',
  'eventRead',
];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Operation {
  method: HttpMethod;
  /** Status of a success (a first creation for `orderCreate`; a v1 profile's `orderCreatedStatus` sets that one). */
  status: number;
}

export interface WebhookEndpointBodyShape {
  /** Where the endpoint's URL goes in the body. */
  url: string;
  /** Where the list of event kinds goes; `null`: the target takes no list (it sends every kind). */
  events: string | null;
}

interface EventKinds {
  orderCreated: string;
  orderCancelled: string;
}

export interface AnswerPointers {
  /** Inside an order answer (its total is `totals.order`; `external_id` is fixed by the document). */
  order: {
    id: string;
    status: string;
    /** The array of lines. */
    lines: string;
    /** Inside one line. */
    lineSku: string;
    lineQuantity: string;
  };
  /** Inside a quote answer (its total is `totals.quote`). */
  quote: { id: string };
  /** Inside a catalog product. */
  product: { sku: string; unitPrice: string; minQuantity: string; shipsByFreight: string };
  webhookEndpoint: { id: string };
  event: { id: string; type: string };
}

export interface ListEnvelope {
  /** The array of items in a list answer. */
  items: string;
  /** A boolean saying more pages follow; `null` when the target gives only `nextCursor`. */
  hasMore: string | null;
  /**
   * The cursor of the next page, absent or null on the last page; `null`:
   * the cursor is the last item's id.
   */
  nextCursor: string | null;
  /** Query parameter carrying the cursor. */
  cursorParam: string;
  /** Query parameter carrying the page size. */
  limitParam: string;
  /** Largest page size the target takes. */
  maxLimit: number;
}

/**
 * `object`: `{amount: <integer cents>, currency}` at the two pointers below;
 * `cents`: a bare integer of cents; `decimal`: a string of dollars such as
 * `"12.34"`. The control protocol always uses integer cents.
 */
export interface MoneyFormat {
  format: 'object' | 'cents' | 'decimal';
  /** Inside a money object (format `object` only). */
  amount: string;
  currency: string;
}

/**
 * The places of the answers where money shows, each of which a server may
 * write in a format of its own (the document shows none: section 3):
 * - `totals`: the total of an order, a quote and an invoice, and a quote's
 *   subtotal and shipping;
 * - `prices`: a catalog product's unit price, and the unit price and amount
 *   of an order's line;
 * - `maxOrderValue`: the account's maximum order value (`GET /account`).
 */
export const MONEY_PLACES = ['totals', 'prices', 'maxOrderValue'] as const;
export type MoneyPlace = (typeof MONEY_PLACES)[number];

/**
 * The money of a dialect: the format of every place (the members of
 * MoneyFormat), and what a place states apart from it, member by member.
 * A place left out keeps the format of every place.
 */
export type MoneyFormats = MoneyFormat & { [P in MoneyPlace]?: Partial<MoneyFormat> };

/** The money format of one place: the place's own members over the dialect's format. */
export function moneyAt(money: MoneyFormats, place: MoneyPlace): MoneyFormat {
  return {
    format: money[place]?.format ?? money.format,
    amount: money[place]?.amount ?? money.amount,
    currency: money[place]?.currency ?? money.currency,
  };
}

interface OrderStatuses {
  received: string;
  inProduction: string;
  shipped: string;
  cancelled: string;
}

/**
 * `json-pointer`: `/items/0/quantity` (RFC 6901); `dot`: `items.0.quantity`;
 * `bracket`: `items[0].quantity`. `member` is the entry's field holding it.
 */
export interface ErrorPointers {
  member: string;
  form: 'json-pointer' | 'dot' | 'bracket';
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

const REFERENCE_ORDER_BODY: OrderBodyShape = {
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

const REFERENCE_ACCOUNT_FIELDS: AccountFields = {
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
    catalogProducts: '/catalog/products',
    catalogProduct: '/catalog/products/{sku}',
    shipments: '/orders/{id}/shipments',
    invoice: '/orders/{id}/invoice',
    webhookEndpoint: '/webhook-endpoints/{id}',
    event: '/events/{id}',
  },
  accountFields: REFERENCE_ACCOUNT_FIELDS,
  orderBody: REFERENCE_ORDER_BODY,
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
  quoteBody: REFERENCE_ORDER_BODY,
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

/** The template of a path, the document's or the dialect's: `pathTemplate(d, 'orders')`. */
export function pathTemplate(dialect: Pick<Dialect, 'paths'>, name: PathName): string {
  return isDocumentPath(name) ? DOCUMENT_PATHS[name] : dialect.paths[name];
}

/** Fills a path template: `pathOf(d, 'order', { id })`. Values are percent-encoded. */
export function pathOf(
  dialect: Pick<Dialect, 'paths'>,
  name: PathName,
  params: Record<string, string> = {},
): string {
  return pathTemplate(dialect, name).replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`path ${name} needs {${key}}`);
    return encodeURIComponent(value);
  });
}
