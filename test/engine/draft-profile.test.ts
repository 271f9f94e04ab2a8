import { join } from 'node:path';
import type { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileSchema } from '../../lib/config/profile-schema.js';
import { draftDialect } from '../../lib/probe/draft/draft-dialect.js';
import { draftProfileFile } from '../../lib/probe/draft/draft-file.js';
import { accountFieldsOf, envelopeOf, keyPrefixOf, moneyOf } from '../../lib/probe/infer.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { emptyDir } from '../support/temp-dir.js';
import {
  ACCESS_TOKEN,
  ACCOUNT,
  type Answer,
  CONTROL_TOKEN,
  DOCS,
  fakeTarget,
  probeConfig,
  type Route,
  SECRET,
} from './support/fake-dialect-target.js';

/**
 * --draft-profile's inference against a MockAgent
 * target: what the answers show is inferred, what they leave open is a
 * TODO naming the profile field, and the file validates as a profile.
 */
const agents: MockAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

async function draft(changes: Partial<Record<Route, Answer>> = {}, partner = false) {
  const fake = fakeTarget(changes);
  agents.push(fake.agent);
  return { draft: await draftDialect(probeConfig(REFERENCE_DIALECT, partner), fake.agent), fake };
}

const ACME_ORDER = { order_id: 'ord_1', external_id: 'x', state: 'new', grand_total: '10.00' };
/** A target that answers in quite another dialect, on the reference's paths (events missing). */
const ACME: Partial<Record<Route, Answer>> = {
  createKey: {
    status: 201,
    body: { access_key_id: 'acme_test_ak_1', secret_key: SECRET, mode: 'test', scopes: [] },
  },
  token: { status: 200, body: { access_token: 'acme_at_probeTokenNeverShown0123456789' } },
  account: {
    status: 200,
    body: {
      account_id: 'a1',
      mode: { live: false },
      billing: 'card',
      permissions_scope: ['orders'],
      limits: { max_value: '5000.00', daily_orders: 3 },
    },
  },
  catalog: {
    status: 200,
    body: { items: [{ sku: 'SKU-1', unit_price: '5.00' }], next_cursor: 'c1' },
  },
  orderCreate: { status: 200, body: ACME_ORDER },
  orderRead: { status: 200, body: ACME_ORDER },
  shipments: { status: 200, body: { items: [], next_cursor: null } },
  events: { status: 404, body: { code: 'not_found' } },
};

describe('draft profile: inferred from the answers', () => {
  it('the reference dialect from a reference-like target, and only the unprobed as TODO', async () => {
    const { draft: d } = await draft();
    expect(d.dialect).toEqual({ ...REFERENCE_DIALECT, docsUrl: DOCS });
    expect(d.inferred).toEqual(
      expect.arrayContaining([
        'docsUrl',
        'keyPrefix',
        'list.items',
        'money.format',
        'orderCreatedStatus',
        'orderBody',
        'answers.order.lines',
        'operations.orderCancel.status',
        'quoteBody',
        'webhookEndpointBody',
      ]),
    );
    expect(d.answered).toEqual(
      expect.arrayContaining(['account', 'catalogProducts', 'orders', 'order', 'events']),
    );
    expect(d.missing).toEqual([]);
    // What this fake cannot show (an order of quantity 0 taken, no event about the order, a
    // state that never moves, no invoice or single event read) is named, field by field.
    expect(d.todos.map((t) => t.slice(0, t.indexOf(':')))).toEqual([
      'dialect.errors.form',
      'dialect.eventKinds.orderCreated',
      'dialect.orderStatuses.cancelled',
      'dialect.orderStatuses.inProduction, shipped',
      "not inferred, kept as written (the starting profile's, else the reference dialect's)",
    ]);
    expect(d.todos.at(-1)).toContain('dialect.paths.invoice');
  });

  it('another dialect: key prefix, account fields, decimal money, items/next_cursor envelope, order answers', async () => {
    const { draft: d } = await draft(ACME);
    expect(d.dialect.keyPrefix).toBe('acme');
    expect(d.dialect.docsUrl).toBe(DOCS);
    expect(d.dialect.accountFields).toEqual({
      livemode: '/mode/live',
      billingMethod: '/billing',
      scopes: '/permissions_scope',
      maxOrderValue: '/limits/max_value',
      maxOrdersPerDay: '/limits/daily_orders',
    });
    expect(d.dialect.money.format).toBe('decimal');
    expect(d.dialect.list).toMatchObject({
      items: '/items',
      hasMore: null,
      nextCursor: '/next_cursor',
    });
    expect(d.dialect.operations.orderCreate.status).toBe(200);
    expect(d.dialect.answers.order).toMatchObject({ id: '/order_id', status: '/state' });
    expect(d.dialect.totals.order).toBe('/grand_total');
    expect(d.dialect.orderStatuses.received).toBe('new');
    expect(d.missing).toEqual(['events']);
    // The event list's path is the document's: what the draft can write is its method.
    expect(d.todos.join('\n')).toContain(
      "dialect.operations.eventList.method: GET /api/on-demand/v1/events answered 404: write the target's method (the path is the API document's)",
    );
  });

  it('a refused order body is a TODO quoting the errors[] pointers', async () => {
    const { draft: d } = await draft({
      orderCreate: {
        status: 422,
        body: { code: 'validation_failed', errors: [{ pointer: '/lines' }] },
      },
    });
    expect(d.todos.join('\n')).toMatch(/dialect\.orderBody: .*422 with errors\[\] at \/lines/);
    expect(d.inferred).not.toContain('orderCreatedStatus');
  });

  it('a list envelope or money format it never saw is a TODO, never the reference kept silently', async () => {
    const { draft: d } = await draft({
      catalog: { status: 404, body: { code: 'not_found' } },
      account: {
        status: 200,
        body: { id: 'a1', limits: { order_ceiling: 5000, daily: 3, burst: 1 } },
      },
    });
    const todos = d.todos.join('\n');
    expect(todos).toMatch(/dialect\.list: not seen \(GET \S+ answered 404\)/);
    // Money is read where it shows: the order's total; the places not seen are named.
    expect(todos).toMatch(/dialect\.money\.maxOrderValue: not seen/);
    expect(d.inferred).not.toContain('list.items');
    expect(d.inferred).not.toContain('money.maxOrderValue');
  });

  it("a list whose method the document leaves open: sent with the profile method, a 404 names the method (the path is the document's)", async () => {
    const start = structuredClone(REFERENCE_DIALECT);
    start.operations.eventList = { ...start.operations.eventList, method: 'POST' };
    const fake = fakeTarget({ webhookEndpoints: { status: 404, body: { code: 'not_found' } } });
    agents.push(fake.agent);
    const d = await draftDialect(probeConfig(start), fake.agent);
    expect(fake.seen).toContain('POST /api/on-demand/v1/events');
    expect(d.todos.join('\n')).toContain(
      "dialect.operations.webhookEndpointList.method: GET /api/on-demand/v1/webhook-endpoints answered 404: write the target's method (the path is the API document's)",
    );
    // No path of the endpoint table is ever drafted or named as a profile field.
    expect(d.todos.join('\n')).not.toMatch(
      /dialect\.paths\.(webhookEndpoints|events|orders|token)\b/,
    );
    expect(Object.keys(d.dialect.paths).sort()).toEqual(
      Object.keys(REFERENCE_DIALECT.paths).sort(),
    );
  });

  it('no key at all: the docs_url still, and a TODO for everything behind a key', async () => {
    const fake = fakeTarget();
    agents.push(fake.agent);
    const d = await draftDialect({ ...probeConfig(), capabilities: [] }, fake.agent);
    expect(d.inferred).toEqual(['docsUrl']);
    expect(d.todos[0]).toContain('everything behind a key');
    expect(fake.seen).toHaveLength(1);
  });

  it('partner mode: its order is cancelled again', async () => {
    const { fake } = await draft({}, true);
    expect(fake.seen).toContain('POST /api/on-demand/v1/orders/ord_1/cancel');
  });
});

describe('draft profile: the file', () => {
  it('validates as a version-2 profile, holds no secret, and says its TODOs in description', async () => {
    const { draft: d } = await draft(ACME);
    const dir = emptyDir('draft-');
    const { profile, todos } = draftProfileFile({
      draft: d,
      file: join(dir, 'acme.json'),
      schemaFile: join(dir, 'config', 'profile.schema.json'),
      targetWords: 'http://target.test',
      target: 'http://target.test',
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(ProfileSchema.safeParse(profile).success).toBe(true);
    expect(profile).toMatchObject({
      $schema: 'config/profile.schema.json',
      version: 2,
      target: 'http://target.test',
      docsUrl: DOCS,
      dialect: {
        keyPrefix: 'acme',
        operations: { orderCreate: { status: 200 } },
        accountFields: { livemode: '/mode/live' },
        totals: { order: '/grand_total' },
      },
    });
    // What this suite's profile format cannot hold yet is a TODO quoting the value, never dropped silently.
    const dialect = profile.dialect as Record<string, unknown>;
    for (const section of ['list', 'money']) {
      if (dialect[section] === undefined)
        expect(todos.some((t) => t.startsWith(`dialect.${section}:`))).toBe(true);
    }
    const description = String(profile.description);
    expect(description).toContain('TODO');
    for (const todo of todos) expect(description).toContain(todo);
    const text = JSON.stringify(profile);
    for (const secret of [SECRET, CONTROL_TOKEN, ACCESS_TOKEN, 'probeTokenNeverShown'])
      expect(text).not.toContain(secret);
  });
});

describe('draft profile: from a starting profile', () => {
  it('keeps what the probe never infers (operations, bodies, event kinds, errors[] form, other answers)', async () => {
    const start = structuredClone(REFERENCE_DIALECT);
    start.operations.orderCancel = { method: 'POST', status: 204 };
    start.operations.eventList = { method: 'POST', status: 200 };
    start.quoteBody = { ...start.quoteBody, items: '/positions' };
    start.webhookEndpointBody = { url: '/delivery/uri', events: '/topics' };
    start.eventKinds = { orderCreated: 'orders/create', orderCancelled: 'orders/cancel' };
    start.errors = { member: 'loc', form: 'bracket' };
    start.answers.event = { id: '/uid', type: '/topic' };
    // The live target shows the cancel's status itself (204): inferred, and as the start says.
    const fake = fakeTarget({ orderCancel: { status: 204 } });
    agents.push(fake.agent);
    const d = await draftDialect(probeConfig(start), fake.agent);
    const dir = emptyDir('draft-');
    const { profile } = draftProfileFile({
      draft: d,
      file: join(dir, 'p.json'),
      schemaFile: join(dir, 'profile.schema.json'),
      targetWords: 'http://target.test',
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(ProfileSchema.safeParse(profile).success).toBe(true);
    expect(profile.dialect).toMatchObject({
      operations: {
        orderCancel: { method: 'POST', status: 204 },
        eventList: { method: 'POST', status: 200 },
      },
      quoteBody: { items: '/positions' },
      webhookEndpointBody: { url: '/delivery/uri', events: '/topics' },
      eventKinds: { orderCreated: 'orders/create', orderCancelled: 'orders/cancel' },
      errors: { member: 'loc', form: 'bracket' },
      answers: { event: { id: '/uid', type: '/topic' }, order: { id: '/id', status: '/status' } },
    });
    const ops = (profile.dialect as { operations: Record<string, unknown> }).operations;
    expect(Object.keys(ops).sort()).toEqual(['eventList', 'orderCancel']);
  });

  it('a member no rule recognises, shown where the starting profile says: kept, no TODO', async () => {
    const account = {
      status: 200,
      body: { ...ACCOUNT, billing_method: undefined, invoicing: { via: 'invoice' } },
    };
    const { draft: bare } = await draft({ account });
    expect(bare.todos.join('\n')).toContain('dialect.accountFields.billingMethod');
    const start = structuredClone(REFERENCE_DIALECT);
    start.accountFields.billingMethod = '/invoicing/via';
    const fake = fakeTarget({ account });
    agents.push(fake.agent);
    const d = await draftDialect(probeConfig(start), fake.agent);
    expect(d.todos.join('\n')).not.toContain('dialect.accountFields.billingMethod');
    expect(d.dialect.accountFields.billingMethod).toBe('/invoicing/via');
  });

  it('from nothing, none of those sections is written', async () => {
    const { draft: d } = await draft();
    const dir = emptyDir('draft-');
    const { profile } = draftProfileFile({
      draft: d,
      file: join(dir, 'p.json'),
      schemaFile: join(dir, 'profile.schema.json'),
      targetWords: 'http://target.test',
      now: new Date('2026-01-01T00:00:00Z'),
    });
    for (const section of [
      'operations',
      'quoteBody',
      'webhookEndpointBody',
      'eventKinds',
      'errors',
    ])
      expect(profile.dialect).not.toHaveProperty(section);
    expect((profile.dialect as { answers: unknown }).answers).toEqual({
      order: { id: '/id', status: '/status' },
    });
  });
});

describe('draft profile: inference rules', () => {
  it('key prefix from the key and the token; none or two: a TODO', () => {
    expect(keyPrefixOf('acme_test_ak_1', 'acme_at_x')).toEqual({ value: 'acme' });
    expect(keyPrefixOf('AKIA123', 'opaque')).toHaveProperty('todo');
    expect(keyPrefixOf('acme_test_ak_1', 'odp_at_x')).toHaveProperty('todo');
  });

  it('money formats', () => {
    expect(moneyOf({ value: 5, currency_code: 'EUR' }, 'x')).toEqual({
      value: { format: 'object', amount: '/value', currency: '/currency_code' },
    });
    expect(moneyOf(500, 'x')).toMatchObject({ value: { format: 'cents' } });
    expect(moneyOf('5.00', 'x')).toMatchObject({ value: { format: 'decimal' } });
    expect(moneyOf('five dollars', 'x')).toHaveProperty('todo');
  });

  it('the maximum order value by elimination under limits, the billing method inside a billing object', () => {
    const fields = accountFieldsOf({
      billing: { method: 'invoice' },
      limits: { order_ceiling: 100000, daily_orders: 50 },
    });
    expect(fields.maxOrdersPerDay).toEqual({ value: '/limits/daily_orders' });
    expect(fields.maxOrderValue).toEqual({ value: '/limits/order_ceiling' });
    expect(fields.billingMethod).toEqual({ value: '/billing/method' });
    // A third member under limits: no elimination, a TODO.
    const three = accountFieldsOf({ limits: { ceiling: 1, daily_orders: 5, burst: 2 } });
    expect(three.maxOrderValue).toHaveProperty('todo');
  });

  it('an account field two members could be is a TODO naming both, never a guess', () => {
    const fields = accountFieldsOf({ live: true, livemode: false, limits: {} });
    expect(fields.livemode).toEqual({
      todo: expect.stringContaining('/live, /livemode'),
    });
    expect(fields.maxOrdersPerDay).toHaveProperty('todo');
  });

  it('list envelopes', () => {
    expect(envelopeOf({ data: [], has_more: true })).toEqual({
      value: { items: '/data', hasMore: '/has_more', nextCursor: null },
    });
    expect(envelopeOf({ results: [], a: [] })).toHaveProperty('todo');
    expect(envelopeOf({ results: [] })).toHaveProperty('todo');
  });
});
