import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import {
  type Dialect,
  type PathName,
  pathTemplate,
  REFERENCE_DIALECT,
} from '../../server/dialect/model.js';
import { formatPointer, get, set } from '../../server/dialect/pointer.js';
import { ignoredFields, ProfileError, parseProfile } from '../../server/dialect/profile.js';
import { API, basicAuth, CONTROL_TOKEN, type JsonBody, type Method } from './support/harness.js';

/**
 * The reference server speaking a profile: each dialect
 * of test/dialects/ is spoken end to end, read here only through its
 * profile (the requests are built and the answers read at the profile's
 * places), and with no profile the reference dialect is what it was.
 */
const DIALECTS = ['acme', 'globex', 'initech', 'umbrella'] as const;

function profileJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../dialects/${name}.json`, import.meta.url), 'utf8'));
}

/** A client of one dialect: paths, methods and bodies from the dialect alone. */
function client(app: FastifyInstance, d: Dialect) {
  const path = (name: PathName, params: Record<string, string> = {}) =>
    pathTemplate(d, name).replace(/\{(\w+)\}/g, (_, key: string) =>
      encodeURIComponent(params[key] ?? ''),
    );
  const withQuery = (url: string, query: Record<string, string>) => {
    const extra = new URLSearchParams(query).toString();
    if (extra === '') return url;
    return `${url}${url.includes('?') ? '&' : '?'}${extra}`;
  };
  async function call(
    op: keyof Dialect['operations'],
    url: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const inject: InjectOptions = {
      method: d.operations[op].method as Method,
      url: `${API}${url}`,
      headers,
    };
    if (options.body !== undefined) inject.payload = options.body as never;
    const reply = await app.inject(inject);
    const body: JsonBody = reply.body === '' ? undefined : JSON.parse(reply.body);
    return { status: reply.statusCode, headers: reply.headers, body };
  }
  async function control(method: string, url: string, body?: unknown) {
    const reply = await app.inject({
      method: method as Method,
      url: `/__control${url}`,
      headers: { 'x-control-token': CONTROL_TOKEN },
      ...(body === undefined ? {} : { payload: body as never }),
    });
    return JSON.parse(reply.body === '' ? 'null' : reply.body) as JsonBody;
  }
  function orderLike(shape: Dialect['orderBody'], sku: string, quantity: number) {
    const body: Record<string, unknown> = {};
    const line: Record<string, unknown> = {};
    set(line, shape.sku, sku);
    set(line, shape.quantity, quantity);
    set(body, shape.items, [line]);
    const address = {
      name: 'Ada Lovelace',
      line1: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      postal_code: '62701',
      country: 'US',
    } as const;
    for (const [field, value] of Object.entries(address))
      set(body, shape.address[field as keyof typeof address], value);
    return body;
  }
  const cents = (value: unknown): number | undefined => {
    if (d.money.format === 'cents') return typeof value === 'number' ? value : undefined;
    if (d.money.format === 'decimal')
      return typeof value === 'string' && /^\d+\.\d{2}$/.test(value)
        ? Math.round(Number(value) * 100)
        : undefined;
    const amount = get(value, d.money.amount);
    return get(value, d.money.currency) === 'USD' && typeof amount === 'number'
      ? amount
      : undefined;
  };
  return { path, withQuery, call, control, orderLike, cents };
}

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

async function speaks(d: Dialect, profile: unknown) {
  const app = await buildApp({
    controlToken: CONTROL_TOKEN,
    ...(profile === undefined ? {} : { profile }),
  });
  apps.push(app);
  const c = client(app, d);

  // Keys and tokens carry the dialect's prefix; the token comes from its token path.
  const account = await c.control('POST', '/accounts', {});
  const key = await c.control('POST', `/accounts/${account.id}/keys`, {});
  expect(key.access_key_id).toMatch(new RegExp(`^${d.keyPrefix}_test_ak_`));
  expect(key.secret_key).toMatch(new RegExp(`^${d.keyPrefix}_test_sk_`));
  const tokenReply = await app.inject({
    method: 'POST',
    url: `${API}${c.path('token')}`,
    headers: {
      authorization: basicAuth(key.access_key_id, key.secret_key),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
  expect(tokenReply.statusCode).toBe(200);
  const token = JSON.parse(tokenReply.body).access_token as string;
  expect(token).toMatch(new RegExp(`^${d.keyPrefix}_at_`));

  // The account, at the dialect's pointers and in its money format.
  const me = await c.call('account', c.path('account'), { token });
  expect(me.status).toBe(200);
  expect(get(me.body, d.accountFields.livemode)).toBe(false);
  expect(get(me.body, d.accountFields.billingMethod)).toBeTypeOf('string');
  expect(get(me.body, d.accountFields.scopes)).toContain('orders:write');
  expect(c.cents(get(me.body, d.accountFields.maxOrderValue))).toBeGreaterThan(0);
  expect(get(me.body, d.accountFields.maxOrdersPerDay)).toBeTypeOf('number');

  // The catalogue: the list envelope and the product's pointers.
  const products = await c.call(
    'catalogProducts',
    c.withQuery(c.path('catalogProducts'), { [d.list.limitParam]: '2' }),
    { token },
  );
  expect(products.status).toBe(200);
  const firstProducts = get(products.body, d.list.items) as JsonBody[];
  expect(firstProducts).toHaveLength(2);
  const sku = get(firstProducts[0], d.answers.product.sku) as string;
  expect(c.cents(get(firstProducts[0], d.answers.product.unitPrice))).toBeGreaterThan(0);
  expect(get(firstProducts[0], d.answers.product.minQuantity)).toBeTypeOf('number');
  expect(get(firstProducts[0], d.answers.product.shipsByFreight)).toBeTypeOf('boolean');
  const product = await c.call('catalogProduct', c.path('catalogProduct', { sku }), { token });
  expect(product.status).toBe(200);
  const unitCents = c.cents(get(product.body, d.answers.product.unitPrice)) as number;
  const minQuantity = Math.max(1, get(product.body, d.answers.product.minQuantity) as number);

  // A quote, with the quote body.
  const quote = await c.call('quoteCreate', c.path('quotes'), {
    token,
    body: c.orderLike(d.quoteBody, sku, minQuantity),
  });
  expect(quote.status).toBe(d.operations.quoteCreate.status);
  const quoteId = get(quote.body, d.answers.quote.id) as string;
  expect(c.cents(get(quote.body, d.totals.quote))).toBe(unitCents * minQuantity);
  // Its lines and address where the quote body put them.
  const quoteLines = get(quote.body, d.quoteBody.items) as JsonBody[];
  expect(get(quoteLines[0], d.quoteBody.sku)).toBe(sku);
  expect(get(quoteLines[0], d.quoteBody.quantity)).toBe(minQuantity);
  expect(get(quote.body, d.quoteBody.address.city)).toBe('Springfield');
  expect((await c.call('quoteRead', c.path('quote', { id: quoteId }), { token })).status).toBe(200);

  // Orders: placed, read, found by external id, paged.
  const placed: string[] = [];
  for (let i = 0; i < 3; i++) {
    const externalId = `ext-${randomUUID()}`;
    const order = await c.call('orderCreate', c.path('orders'), {
      token,
      headers: { 'idempotency-key': randomUUID() },
      body: { external_id: externalId, ...c.orderLike(d.orderBody, sku, minQuantity) },
    });
    expect(order.status).toBe(d.operations.orderCreate.status);
    const id = get(order.body, d.answers.order.id) as string;
    expect(order.headers.location).toBe(`${API}${c.path('order', { id })}`);
    expect(get(order.body, d.answers.order.status)).toBe(d.orderStatuses.received);
    const lines = get(order.body, d.answers.order.lines) as JsonBody[];
    expect(get(lines[0], d.answers.order.lineSku)).toBe(sku);
    expect(get(lines[0], d.answers.order.lineQuantity)).toBe(minQuantity);
    expect(c.cents(get(order.body, d.totals.order))).toBe(unitCents * minQuantity);
    expect(get(order.body, d.orderBody.address.city)).toBe('Springfield');
    const byExternal = await c.call(
      'orderByExternalId',
      c.path('orderByExternalId', { external_id: externalId }),
      { token },
    );
    expect(get(byExternal.body, d.answers.order.id)).toBe(id);
    placed.push(id);
  }
  const read = await c.call('orderRead', c.path('order', { id: placed[0] as string }), { token });
  expect(get(read.body, d.answers.order.id)).toBe(placed[0]);
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 3; page++) {
    const query: Record<string, string> = { [d.list.limitParam]: '2' };
    if (cursor !== undefined) query[d.list.cursorParam] = cursor;
    const listed = await c.call('orderList', c.withQuery(c.path('orders'), query), { token });
    expect(listed.status).toBe(200);
    const items = get(listed.body, d.list.items) as JsonBody[];
    seen.push(...items.map((o) => get(o, d.answers.order.id) as string));
    const more =
      d.list.hasMore !== null
        ? get(listed.body, d.list.hasMore) === true
        : get(listed.body, d.list.nextCursor ?? '') != null;
    if (!more) break;
    cursor =
      d.list.nextCursor !== null
        ? (get(listed.body, d.list.nextCursor) as string)
        : (get(items.at(-1), d.answers.order.id) as string);
  }
  expect(seen.sort()).toEqual([...placed].sort());

  // A 422: its pointers lead to the dialect's own places, in its form, under its member.
  const bad = c.orderLike(d.orderBody, sku, 0);
  set(bad, '/surprise', true);
  const refused = await c.call('orderCreate', c.path('orders'), {
    token,
    headers: { 'idempotency-key': randomUUID() },
    body: { external_id: `ext-${randomUUID()}`, ...bad },
  });
  expect(refused.status).toBe(422);
  const pointers = (refused.body.errors as JsonBody[]).map((e) => e[d.errors.member]).sort();
  expect(pointers).toEqual(
    [
      formatPointer(`${d.orderBody.items}/0${d.orderBody.quantity}`, d.errors.form),
      formatPointer('/surprise', d.errors.form),
    ].sort(),
  );
  expect(refused.body.instance).toBe(`${API}${c.path('orders')}`.split('?')[0]);
  expect(refused.body.type).toMatch(
    new RegExp(`^${(d.docsUrl ?? 'https://docs.example.com').replace(/[.]/g, '\\.')}`),
  );
  const tooMany = await c.call(
    'orderList',
    c.withQuery(c.path('orders'), { [d.list.limitParam]: String(d.list.maxLimit + 1) }),
    { token },
  );
  expect(tooMany.status).toBe(422);
  expect(tooMany.body.errors[0][d.errors.member]).toBe(d.list.limitParam);

  // Cancel, and the state's name.
  const cancelled = await c.call(
    'orderCancel',
    c.path('orderCancel', { id: placed[0] as string }),
    { token },
  );
  expect(cancelled.status).toBe(d.operations.orderCancel.status);
  const after = await c.call('orderRead', c.path('order', { id: placed[0] as string }), { token });
  expect(get(after.body, d.answers.order.status)).toBe(d.orderStatuses.cancelled);

  // Fulfilment: shipments and the invoice.
  await c.control('POST', `/accounts/${account.id}/orders/${placed[1]}/ship`);
  const shipments = await c.call('shipments', c.path('shipments', { id: placed[1] as string }), {
    token,
  });
  expect(shipments.status).toBe(200);
  expect(get(shipments.body, d.list.items)).toHaveLength(1);
  const invoice = await c.call('invoice', c.path('invoice', { id: placed[1] as string }), {
    token,
  });
  expect(invoice.status).toBe(200);
  expect(c.cents(invoice.body.total)).toBe(unitCents * minQuantity);

  // Events: the dialect's kinds, at its pointers.
  const events = await c.call('eventList', c.path('events'), { token });
  const kinds = (get(events.body, d.list.items) as JsonBody[]).map((e) =>
    get(e, d.answers.event.type),
  );
  expect(kinds).toContain(d.eventKinds.orderCreated);
  expect(kinds).toContain(d.eventKinds.orderCancelled);
  const eventId = get(
    (get(events.body, d.list.items) as JsonBody[])[0],
    d.answers.event.id,
  ) as string;
  expect((await c.call('eventRead', c.path('event', { id: eventId }), { token })).status).toBe(200);

  // A webhook endpoint: created with the dialect's method and body, then deleted.
  const endpointBody: Record<string, unknown> = {};
  set(endpointBody, d.webhookEndpointBody.url, 'https://example.com/hook');
  if (d.webhookEndpointBody.events !== null)
    set(endpointBody, d.webhookEndpointBody.events, [d.eventKinds.orderCreated]);
  const endpoint = await c.call('webhookEndpointCreate', c.path('webhookEndpoints'), {
    token,
    body: endpointBody,
  });
  expect(endpoint.status).toBe(d.operations.webhookEndpointCreate.status);
  const endpointId = get(endpoint.body, d.answers.webhookEndpoint.id) as string;
  if (d.webhookEndpointBody.events !== null)
    expect(get(endpoint.body, d.webhookEndpointBody.events)).toEqual([d.eventKinds.orderCreated]);
  const endpoints = await c.call('webhookEndpointList', c.path('webhookEndpoints'), { token });
  expect(get(endpoints.body, d.list.items)).toHaveLength(1);
  expect(
    (await c.call('webhookEndpointRead', c.path('webhookEndpoint', { id: endpointId }), { token }))
      .status,
  ).toBe(200);
  const deleted = await c.call(
    'webhookEndpointDelete',
    c.path('webhookEndpoint', { id: endpointId }),
    { token },
  );
  expect(deleted.status).toBe(d.operations.webhookEndpointDelete.status);
  const gone = await c.call('webhookEndpointRead', c.path('webhookEndpoint', { id: endpointId }), {
    token,
  });
  expect(gone.status).toBe(404);

  // Control faults (contract §3) name the dialect's method and path.
  await c.control('POST', `/accounts/${account.id}/faults`, {
    method: d.operations.orderCancel.method,
    path: `${API}${c.path('orderCancel', { id: placed[2] as string })}`,
  });
  const faulted = await c.call('orderCancel', c.path('orderCancel', { id: placed[2] as string }), {
    token,
  });
  expect(faulted.status).toBe(500);

  // A Secret Key of the dialect in a body is still refused (§5.4).
  const leaked = await c.call('orderCreate', c.path('orders'), {
    token,
    headers: { 'idempotency-key': randomUUID() },
    body: { external_id: key.secret_key, ...c.orderLike(d.orderBody, sku, minQuantity) },
  });
  expect(leaked.status).toBe(422);
  expect(JSON.stringify(leaked.body)).not.toContain(key.secret_key);
  return { app, token, c };
}

describe('the reference server speaks a profile', () => {
  it.each(DIALECTS)('%s: every operation in its own dialect', async (name) => {
    const profile = profileJson(name);
    const d = parseProfile(profile);
    const { c, token } = await speaks(d, profile);
    // The reference's places are not the dialect's: its catalog path answers 404 or another operation.
    if (d.paths.catalogProducts !== REFERENCE_DIALECT.paths.catalogProducts) {
      const reply = await c.call('catalogProducts', REFERENCE_DIALECT.paths.catalogProducts, {
        token,
      });
      expect(reply.status).toBe(404);
    }
  });

  it("a profile that sets what the document fixes is spoken at the document's paths and methods, and says so", async () => {
    const profile = {
      version: 2,
      dialect: {
        paths: { orders: '/purchase-orders', order: '/purchase-orders/{id}' },
        operations: { orderRead: { method: 'POST' }, eventList: { method: 'POST' } },
      },
    };
    const d = parseProfile(profile);
    expect(d.paths).toEqual(REFERENCE_DIALECT.paths);
    expect(d.operations.orderRead.method).toBe('GET');
    // Where the document leaves the method open, the profile's stands.
    expect(d.operations.eventList.method).toBe('POST');
    expect(ignoredFields(profile)).toEqual([
      'dialect.paths.orders ("/purchase-orders") is ignored: the API document fixes /orders',
      'dialect.paths.order ("/purchase-orders/{id}") is ignored: the API document fixes /orders/{id}',
      'dialect.operations.orderRead.method (POST) is ignored: the API document fixes GET',
    ]);
    await speaks(d, profile);
  });

  it('with no profile, the reference dialect, exactly as the same scenario reads it', async () => {
    await speaks(REFERENCE_DIALECT, undefined);
  });

  it('an empty profile is the reference dialect too', async () => {
    await speaks(REFERENCE_DIALECT, {});
  });
});

describe('a profile the server cannot speak is refused, one line per problem', () => {
  it('names each bad field', () => {
    let caught: unknown;
    try {
      parseProfile({
        version: 2,
        dialect: {
          colour: 'blue',
          paths: { shipments: '/shipments', catalogProducts: '/products' },
          operations: { orderCreate: { method: 'PUT' } },
          list: { maxLimit: 500 },
          money: { format: 'pennies' },
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProfileError);
    const problems = (caught as ProfileError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'dialect: unknown setting colour',
        expect.stringMatching(/^dialect\.paths\.shipments: must hold exactly the placeholders/),
        expect.stringMatching(/^dialect\.paths\.catalogProducts: must be \/catalog or below it/),
        expect.stringMatching(/^dialect\.list\.maxLimit: /),
        expect.stringMatching(/^dialect\.money\.format: /),
      ]),
    );
  });

  it('refuses fields that overwrite each other', () => {
    expect(() =>
      parseProfile({
        dialect: {
          operations: { orderCreate: { method: 'PUT' } },
          orderBody: { items: '/lines', sku: '/x', quantity: '/x' },
        },
      }),
    ).toThrow(/^dialect\.orderBody: sku \(\/x\) and quantity \(\/x\) would overwrite each other$/m);
  });
});
