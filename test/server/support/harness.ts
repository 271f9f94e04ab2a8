import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** An HTTP method as `inject` takes it. */
export type Method = NonNullable<InjectOptions['method']>;

export const API = '/api/on-demand/v1';
export const CONTROL_TOKEN = `ct-${randomUUID()}`;

type Json = Record<string, unknown> | unknown[] | string | number | boolean | null;

/** Parsed JSON of a reply; tests read it field by field and `expect` checks the types. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed reply body is inspected dynamically in tests.
export type JsonBody = any;

export interface Reply {
  status: number;
  headers: LightMyRequestResponse['headers'];
  /** Parsed JSON body (problem or resource); `undefined` when empty. */
  body: JsonBody;
  raw: LightMyRequestResponse;
}

export interface Key {
  access_key_id: string;
  secret_key: string;
  mode: 'test' | 'live';
  scopes: string[];
}

export interface Partner {
  accountId: string;
  key: Key;
  token: string;
}

export interface RequestOptions {
  token?: string;
  body?: Json;
  /** A raw payload, sent as is (with the given headers). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  remoteAddress?: string;
  idempotencyKey?: string;
}

function wrap(response: LightMyRequestResponse): Reply {
  let body: unknown;
  if (response.body !== '') {
    try {
      body = JSON.parse(response.body);
    } catch {
      body = response.body;
    }
  }
  return { status: response.statusCode, headers: response.headers, body, raw: response };
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/**
 * The key with a wrong Secret Key: its last character changed. Always to
 * another one: a fixed replacement was the secret itself once in 62 keys,
 * and the "failed" requests were then answered 200.
 */
export function withWrongSecret<K extends { secret_key: string }>(key: K): K {
  const last = key.secret_key.at(-1);
  return { ...key, secret_key: `${key.secret_key.slice(0, -1)}${last === 'Z' ? 'Y' : 'Z'}` };
}

/** A valid order body (contract §2) against the default product list. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: `ext-${randomUUID()}`,
    items: [{ sku: 'MUG-WHT-11OZ', quantity: 2 }],
    shipping_address: {
      name: 'Ada Lovelace',
      line1: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      postal_code: '62701',
      country: 'US',
    },
    ...overrides,
  };
}

/**
 * Talks to an app through `inject` (real HTTP semantics, no socket): the
 * control protocol to set state up, the API as a partner would.
 */
export function harness(app: FastifyInstance) {
  async function control(method: string, path: string, body?: Json): Promise<Reply> {
    const options: InjectOptions = {
      method: method as Method,
      url: `/__control${path}`,
      headers: { 'x-control-token': CONTROL_TOKEN },
    };
    if (body !== undefined) options.payload = body as NonNullable<InjectOptions['payload']>;
    return wrap(await app.inject(options));
  }

  async function mustControl(method: string, path: string, body?: Json): Promise<JsonBody> {
    const reply = await control(method, path, body);
    if (reply.status >= 300) {
      throw new Error(`control ${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    return reply.body;
  }

  async function api(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    const inject: InjectOptions = {
      method: method as Method,
      url: `${API}${path}`,
      headers,
    };
    if (options.body !== undefined)
      inject.payload = options.body as NonNullable<InjectOptions['payload']>;
    if (options.payload !== undefined) inject.payload = options.payload;
    if (options.remoteAddress !== undefined) inject.remoteAddress = options.remoteAddress;
    return wrap(await app.inject(inject));
  }

  async function tokenRequest(
    key: Pick<Key, 'access_key_id' | 'secret_key'>,
    form = 'grant_type=client_credentials',
    extra: RequestOptions = {},
  ): Promise<Reply> {
    return api('POST', '/oauth/token', {
      ...extra,
      payload: form,
      headers: {
        authorization: basicAuth(key.access_key_id, key.secret_key),
        'content-type': 'application/x-www-form-urlencoded',
        ...extra.headers,
      },
    });
  }

  async function token(key: Key, scope?: string, remoteAddress?: string): Promise<string> {
    const form =
      scope === undefined
        ? 'grant_type=client_credentials'
        : `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`;
    const reply = await tokenRequest(
      key,
      form,
      remoteAddress === undefined ? {} : { remoteAddress },
    );
    if (reply.status !== 200)
      throw new Error(`token → ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.access_token as string;
  }

  return {
    app,
    control,
    api,
    tokenRequest,
    token,
    async account(settings: Record<string, unknown> = {}): Promise<JsonBody> {
      return mustControl('POST', '/accounts', settings as Json);
    },
    async patchAccount(id: string, settings: Record<string, unknown>): Promise<JsonBody> {
      return mustControl('PATCH', `/accounts/${id}`, settings as Json);
    },
    async key(accountId: string, options: Record<string, unknown> = {}): Promise<Key> {
      return mustControl('POST', `/accounts/${accountId}/keys`, options as Json);
    },
    async advance(accountId: string, seconds: number): Promise<string> {
      return (
        await mustControl('POST', `/accounts/${accountId}/clock`, { advance_seconds: seconds })
      ).now;
    },
    /** Moves the account clock past UTC midnight when it is within 10 minutes of it, so day counts cannot straddle two days. */
    async awayFromMidnight(accountId: string): Promise<void> {
      const { now } = await mustControl('GET', `/accounts/${accountId}`);
      const msIntoDay = Date.parse(now) % 86_400_000;
      if (msIntoDay > 86_400_000 - 600_000)
        await mustControl('POST', `/accounts/${accountId}/clock`, { advance_seconds: 900 });
    },
    /** Moves the account clock to just after the start of a rate-limit window (contract §2: whole minutes), so a test has ~60 s of one window. */
    async startOfWindow(accountId: string): Promise<void> {
      const { now } = await mustControl('GET', `/accounts/${accountId}`);
      const intoMinute = Date.parse(now) % 60_000;
      await mustControl('POST', `/accounts/${accountId}/clock`, {
        advance_seconds: (60_000 - intoMinute + 10) / 1000,
      });
    },
    async fault(accountId: string, fault: Record<string, unknown>): Promise<void> {
      await mustControl('POST', `/accounts/${accountId}/faults`, fault as Json);
    },
    async shipOrder(accountId: string, orderId: string): Promise<void> {
      await mustControl('POST', `/accounts/${accountId}/orders/${orderId}/ship`);
    },
    async startProduction(accountId: string, orderId: string): Promise<void> {
      await mustControl('POST', `/accounts/${accountId}/orders/${orderId}/start-production`);
    },
    /** A fresh account, one key and a token: the usual start of a test. */
    async partner(
      settings: Record<string, unknown> = {},
      keyOptions: Record<string, unknown> = {},
    ): Promise<Partner> {
      const account = await mustControl('POST', '/accounts', settings as Json);
      const key = await mustControl('POST', `/accounts/${account.id}/keys`, keyOptions as Json);
      return { accountId: account.id, key, token: await token(key) };
    },
    async placeOrder(
      partner: Partner,
      overrides: Record<string, unknown> = {},
      idempotencyKey: string = randomUUID(),
    ): Promise<Reply> {
      return api('POST', '/orders', {
        token: partner.token,
        idempotencyKey,
        body: orderBody(overrides) as Json,
      });
    },
  };
}

/** Asserts the §2 error object shape and returns the body. */
export function expectProblemShape(reply: Reply, code: string, status: number): JsonBody {
  const { body } = reply;
  const failures: string[] = [];
  if (reply.status !== status) failures.push(`status ${reply.status} ≠ ${status}`);
  if (!String(reply.headers['content-type']).startsWith('application/problem+json')) {
    failures.push(`content-type ${reply.headers['content-type']}`);
  }
  if (body?.code !== code) failures.push(`code ${body?.code} ≠ ${code}`);
  if (body?.status !== status) failures.push(`body.status ${body?.status}`);
  if (body?.type !== `https://docs.example.com/errors#error-${code.replaceAll('_', '-')}`)
    failures.push(`type ${body?.type}`);
  for (const field of ['title', 'detail', 'instance', 'request_id']) {
    if (typeof body?.[field] !== 'string' || body[field] === '') failures.push(`missing ${field}`);
  }
  if (failures.length > 0) throw new Error(`${failures.join('; ')}\n${JSON.stringify(body)}`);
  return body;
}
