import { MockAgent } from 'undici';
import type { ProbeConfig } from '../../../lib/probe/probe-session.js';
import {
  type Dialect,
  type PathName,
  pathTemplate,
  REFERENCE_DIALECT,
} from '../../../lib/target/dialect.js';

/**
 * A target made of undici MockAgent answers for the dialect probe and the
 * draft profile: by default a correct target in the reference dialect with
 * a control API. A test changes one answer (or the paths, through the
 * dialect it routes by). API requests without credentials get a 401 problem.
 */
const ORIGIN = 'http://target.test';
export const API = '/api/on-demand/v1';
export const SECRET = 'odp_test_sk_ProbeSecretNeverShown0123456789';
export const CONTROL_TOKEN = 'control-token-never-shown-0123456789';
export const ACCESS_TOKEN = 'odp_at_probeTokenNeverShown0123456789';
export const DOCS = 'https://docs.target.test';

export type Answer = { status: number; body?: unknown };
export type Route =
  | 'token'
  | 'account'
  | 'catalog'
  | 'catalogProduct'
  | 'quoteCreate'
  | 'quoteRead'
  | 'orderCreate'
  | 'orderRead'
  | 'orderByExternalId'
  | 'orderList'
  | 'orderCancel'
  | 'shipments'
  | 'webhookEndpoints'
  | 'webhookEndpointCreate'
  | 'webhookEndpointDelete'
  | 'events'
  | 'createAccount'
  | 'createKey';

export const ORDER = {
  id: 'ord_1',
  external_id: 'x',
  status: 'received',
  items: [{ sku: 'SKU-1', quantity: 2 }],
  total: { amount: 1000, currency: 'USD' },
};
const QUOTE = {
  id: 'quo_1',
  items: [{ sku: 'SKU-1', quantity: 2 }],
  total: { amount: 1000, currency: 'USD' },
};
export const ACCOUNT = {
  id: 'acc_1',
  livemode: false,
  billing_method: 'invoice',
  limits: { max_order_value: { amount: 500000, currency: 'USD' }, max_orders_per_day: 100 },
  scopes: ['orders:read', 'orders:write'],
};
export const PRODUCTS = [
  { sku: 'SKU-1', name: 'one', unit_price: 500, min_quantity: 2, ships_by_freight: false },
];

function reference(): Record<Route, Answer> {
  const price = { amount: 500, currency: 'USD' };
  return {
    token: { status: 200, body: { access_token: ACCESS_TOKEN, expires_in: 3600 } },
    account: { status: 200, body: ACCOUNT },
    catalog: {
      status: 200,
      body: { data: [{ ...PRODUCTS[0], unit_price: price }], has_more: false },
    },
    catalogProduct: { status: 200, body: { ...PRODUCTS[0], unit_price: price } },
    quoteCreate: { status: 201, body: QUOTE },
    quoteRead: { status: 200, body: QUOTE },
    orderCreate: { status: 201, body: ORDER },
    orderRead: { status: 200, body: ORDER },
    orderByExternalId: { status: 200, body: ORDER },
    orderList: { status: 200, body: { data: [ORDER], has_more: false } },
    orderCancel: { status: 200, body: { ...ORDER, status: 'cancelled' } },
    shipments: { status: 200, body: { data: [], has_more: false } },
    webhookEndpoints: { status: 200, body: { data: [], has_more: false } },
    webhookEndpointCreate: {
      status: 201,
      body: { id: 'we_1', url: 'https://x.test', events: ['order.created'] },
    },
    webhookEndpointDelete: { status: 204 },
    events: { status: 200, body: { data: [], has_more: false } },
    createAccount: { status: 201, body: { id: 'acc_1', products: PRODUCTS } },
    createKey: {
      status: 201,
      body: { access_key_id: 'odp_test_ak_probe', secret_key: SECRET, mode: 'test', scopes: [] },
    },
  };
}

export interface Fake {
  agent: MockAgent;
  /** Requests answered, as `METHOD path`. */
  seen: string[];
  /** Bodies sent, by `METHOD path`. */
  bodies: Map<string, string>;
}

export function fakeTarget(
  changes: Partial<Record<Route, Answer>> = {},
  dialect = REFERENCE_DIALECT,
): Fake {
  const answers = { ...reference(), ...changes };
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: string[] = [];
  const bodies = new Map<string, string>();
  const route = (method: string, path: string): Route | undefined => {
    const bare = path.split('?')[0] ?? '';
    if (bare === '/__control/accounts' && method === 'POST') return 'createAccount';
    if (/^\/__control\/accounts\/[^/]+\/keys$/.test(bare) && method === 'POST') return 'createKey';
    const p = bare.slice(API.length);
    const at = (name: PathName) => pathTemplate(dialect, name);
    const byId = (name: PathName) => at(name).replace('{id}', 'ord_1');
    if (p === at('token')) return 'token';
    if (p === at('account')) return 'account';
    if (p === at('catalogProducts')) return 'catalog';
    if (p === at('catalogProduct').replace('{sku}', 'SKU-1')) return 'catalogProduct';
    if (p === at('quotes') && method === 'POST') return 'quoteCreate';
    if (p === at('quote').replace('{id}', 'quo_1')) return 'quoteRead';
    if (p === at('orders')) return method === 'POST' ? 'orderCreate' : 'orderList';
    if (p === byId('order')) return 'orderRead';
    if (p === byId('orderCancel')) return 'orderCancel';
    if (p === byId('shipments')) return 'shipments';
    if (p.startsWith(at('orderByExternalId').replace('{external_id}', '')))
      return 'orderByExternalId';
    if (p === at('webhookEndpoints'))
      return method === 'POST' ? 'webhookEndpointCreate' : 'webhookEndpoints';
    if (p === at('webhookEndpoint').replace('{id}', 'we_1')) return 'webhookEndpointDelete';
    if (p === at('events')) return 'events';
    return undefined;
  };
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      const key = `${options.method} ${options.path}`;
      seen.push(key);
      if (typeof options.body === 'string') bodies.set(key, options.body);
      const headers = (options.headers ?? {}) as Record<string, string>;
      const name = route(options.method, options.path);
      const anonymous =
        options.path.startsWith(API) &&
        !Object.keys(headers).some((h) => /^authorization$/i.test(h));
      const answer: Answer = anonymous
        ? {
            status: 401,
            body: { type: `${DOCS}/errors#error-unauthorized`, status: 401, code: 'unauthorized' },
          }
        : name
          ? answers[name]
          : { status: 404, body: { type: `${DOCS}/errors#error-not-found`, code: 'not_found' } };
      return {
        statusCode: answer.status,
        data: answer.body === undefined ? '' : JSON.stringify(answer.body),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  return { agent, seen, bodies };
}

export function probeConfig(dialect: Dialect = REFERENCE_DIALECT, partner = false): ProbeConfig {
  return {
    origin: ORIGIN,
    apiBaseUrl: `${ORIGIN}${API}`,
    requestTimeoutMs: 2_000,
    dialect,
    ...(partner
      ? {
          capabilities: [],
          partnerKey: { accessKeyId: 'odp_test_ak_partner', secretKey: SECRET },
        }
      : {
          capabilities: ['accounts', 'keys'],
          controlUrl: `${ORIGIN}/__control`,
          controlToken: CONTROL_TOKEN,
        }),
  };
}

export function withDialect(change: (d: Dialect) => void): Dialect {
  const copy = structuredClone(REFERENCE_DIALECT);
  change(copy);
  return copy;
}
