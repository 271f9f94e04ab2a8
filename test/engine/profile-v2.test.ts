import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { centsIn } from '../../lib/check/answers.js';
import { linesOf, orderBodyOf } from '../../lib/check/order-body.js';
import { buildRequest } from '../../lib/client/build-request.js';
import { requestClass } from '../../lib/client/rate-limits.js';
import { ConfigError } from '../../lib/config/config-error.js';
import { loadProfile } from '../../lib/config/profile.js';
import { profileJsonSchema } from '../../lib/config/profile-json-schema.js';
import { valueAt } from '../../lib/evidence/json-pointer.js';
import { MONEY_PLACES, moneyAt, pathOf, REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { parseProfile as parseServerProfile } from '../../server/dialect/profile.js';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';

function profileIn(body: unknown): { cwd: string; file: string } {
  const cwd = emptyDir();
  writeFileSync(join(cwd, 'p.json'), JSON.stringify(body));
  return { cwd, file: './p.json' };
}

function load(body: unknown) {
  const { cwd, file } = profileIn(body);
  return loadProfile(file, '--profile', cwd);
}

function errorOf(body: unknown): string {
  try {
    load(body);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const spec = {
  externalId: 'ext-1',
  items: [{ sku: 'SKU-1', quantity: 3 }],
  address: {
    name: 'Ada',
    line1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  },
};

describe('profile v2', () => {
  it('keeps a v1 profile meaning what it meant: order body and totals are the reference', () => {
    const { dialect } = load({
      dialect: {
        keyPrefix: 'acme',
        paths: { invoice: '/v2/invoices/{id}' },
        orderCreatedStatus: 200,
      },
    });
    expect(dialect).toEqual({
      ...REFERENCE_DIALECT,
      keyPrefix: 'acme',
      paths: { ...REFERENCE_DIALECT.paths, invoice: '/v2/invoices/{id}' },
      // The v1 field is the v2 operation's status: one fact, two spellings.
      operations: {
        ...REFERENCE_DIALECT.operations,
        orderCreate: { method: 'POST', status: 200 },
      },
    });
    expect(load({ version: 1, dialect: {} }).dialect).toEqual(REFERENCE_DIALECT);
  });

  it('builds order bodies of the shape a v2 profile gives and reads totals where it says', () => {
    const { dialect } = load({
      version: 2,
      dialect: {
        orderBody: {
          items: '/lines',
          sku: '/product/code',
          quantity: '/qty',
          address: { name: '/ship_to/recipient', postal_code: '/ship_to/zip' },
        },
        totals: { order: '/amounts/total', quote: '/grand_total' },
        money: { format: 'decimal' },
      },
    });
    const body = orderBodyOf(dialect.orderBody, spec);
    expect(body).toEqual({
      external_id: 'ext-1',
      lines: [{ product: { code: 'SKU-1' }, qty: 3 }],
      ship_to: { recipient: 'Ada', zip: '62701' },
      // Address fields the profile left out keep the reference's place.
      shipping_address: { line1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US' },
    });
    expect(linesOf(dialect.orderBody, body)).toEqual(spec.items);
    const order = { total: 1, amounts: { total: '12.34' } };
    expect(centsIn(dialect.money, valueAt(order, dialect.totals.order))).toBe(1234);
    expect(centsIn(dialect.money, valueAt({ grand_total: '9.99' }, dialect.totals.quote))).toBe(
      999,
    );
    // Only the profile's money format is read: an integer could be cents or dollars.
    expect(centsIn(dialect.money, valueAt({ grand_total: 999 }, dialect.totals.quote))).toBe(
      undefined,
    );
  });

  it('refuses v2 sections in a profile that does not say version 2', () => {
    expect(errorOf({ dialect: { totals: { order: '/sum' } } })).toBe(
      'p.json: dialect.totals: is a profile v2 section: add "version": 2 at the top of the profile',
    );
  });

  it('gives one line per problem, each naming its field', () => {
    const message = errorOf({
      version: 3,
      dialect: { orderBody: { items: 'lines', colour: '/c' } },
    });
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^p\.json: version: /),
      expect.stringMatching(/^p\.json: dialect\.orderBody\.items: must be a JSON pointer/),
      'p.json: dialect.orderBody.colour: unknown setting',
    ]);
    expect(message).not.toMatch(/ZodError|"code"/);
  });

  it('refuses order body fields that would land in one place', () => {
    expect(
      errorOf({ version: 2, dialect: { orderBody: { items: '/shipping_address/name' } } }),
    ).toMatch(/^p\.json: dialect\.orderBody\.items: .* clashes with orderBody\.address\.name/);
    expect(errorOf({ version: 2, dialect: { orderBody: { items: '/external_id' } } })).toMatch(
      /^p\.json: dialect\.orderBody\.items: cannot be \/external_id/,
    );
  });

  it('accepts a placeholder in a path query and sends it expanded', () => {
    const { dialect } = load({ dialect: { paths: { shipments: '/shipments?order_id={id}' } } });
    const path = pathOf(dialect, 'shipments', { id: 'ord 1/2' });
    expect(path).toBe('/shipments?order_id=ord%201%2F2');
    const wire = buildRequest(
      { method: 'get', path, query: { limit: '5' } },
      { origin: 'http://t.test', apiBaseUrl: 'http://t.test/api/v1' },
      undefined,
    );
    expect(wire.url).toBe('http://t.test/api/v1/shipments?order_id=ord%201%2F2&limit=5');
    // A token path with a query is still paced as the token endpoint.
    expect(requestClass('POST', '/oauth/token?grant=cc', '/oauth/token?grant=cc')).toBe('token');
    expect(errorOf({ dialect: { paths: { shipments: '/shipments?order_id={order}' } } })).toMatch(
      /^p\.json: dialect\.paths\.shipments: must contain exactly the placeholders \{id\}/,
    );
  });

  it('publishes the JSON Schema generated from the zod schema (npm run docs:profile-schema)', () => {
    const committed = readFileSync(
      new URL('../../config/profile.schema.json', import.meta.url),
      'utf8',
    );
    expect(committed).toBe(profileJsonSchema());
    const reference = JSON.parse(
      readFileSync(new URL('../../config/reference.json', import.meta.url), 'utf8'),
    );
    expect(reference.$schema).toBe('./profile.schema.json');
  });

  it('stops the CLI with exit 2 and one line naming the field of a bad profile', async () => {
    const { cwd, file } = profileIn({ version: 2, dialect: { totals: { order: 'total' } } });
    const result = await runCli(['--profile', file], {}, cwd);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'conformance: error: p.json: dialect.totals.order: must be a JSON pointer: "/" and a member name per level, such as "/total" or "/limits/max_order_value"',
    ]);
  });
});

describe('profile v2: operations, bodies, answers, list, money, states, errors', () => {
  const full = {
    version: 2,
    dialect: {
      orderBody: { items: '/lines', sku: '/code', quantity: '/qty' },
      operations: {
        orderCreate: { status: 200 },
        orderCancel: { status: 202 },
        webhookEndpointCreate: { method: 'PUT', status: 200 },
        webhookEndpointDelete: { method: 'POST', status: 200 },
      },
      quoteBody: { items: '/quote_lines' },
      webhookEndpointBody: { url: '/target/url', events: null },
      eventKinds: { orderCreated: 'OrderCreated', orderCancelled: 'OrderCancelled' },
      answers: {
        order: { id: '/order_id', status: '/state', lines: '/lines', lineSku: '/code' },
        quote: { id: '/quote_id' },
        product: { unitPrice: '/price' },
        webhookEndpoint: { id: '/endpoint_id' },
        event: { type: '/kind' },
      },
      list: { items: '/items', hasMore: null, nextCursor: '/next', cursorParam: 'cursor' },
      money: { format: 'decimal' },
      orderStatuses: { received: 'NEW', cancelled: 'CANCELED' },
      errors: { member: 'field', form: 'dot' },
    },
  };

  it('reads every v2 section over the reference, field by field', () => {
    const { dialect } = load(full);
    const reference = REFERENCE_DIALECT;
    expect(dialect.operations).toEqual({
      ...reference.operations,
      orderCreate: { method: 'POST', status: 200 },
      orderCancel: { method: 'POST', status: 202 },
      webhookEndpointCreate: { method: 'PUT', status: 200 },
      webhookEndpointDelete: { method: 'POST', status: 200 },
    });
    // The v2 operation's status is the v1 field's: one fact.
    expect(dialect.operations.orderCreate.status).toBe(200);
    // The quote body starts from the profile's order body, not the reference's.
    expect(dialect.quoteBody).toEqual({ ...dialect.orderBody, items: '/quote_lines' });
    expect(dialect.webhookEndpointBody).toEqual({ url: '/target/url', events: null });
    expect(dialect.eventKinds).toEqual({
      orderCreated: 'OrderCreated',
      orderCancelled: 'OrderCancelled',
    });
    expect(dialect.answers).toEqual({
      order: {
        id: '/order_id',
        status: '/state',
        lines: '/lines',
        lineSku: '/code',
        lineQuantity: '/quantity',
      },
      quote: { id: '/quote_id' },
      product: { ...reference.answers.product, unitPrice: '/price' },
      webhookEndpoint: { id: '/endpoint_id' },
      event: { id: '/id', type: '/kind' },
    });
    expect(dialect.list).toEqual({
      items: '/items',
      hasMore: null,
      nextCursor: '/next',
      cursorParam: 'cursor',
      limitParam: 'limit',
      maxLimit: 100,
    });
    expect(dialect.money).toEqual({ format: 'decimal', amount: '/amount', currency: '/currency' });
    expect(dialect.orderStatuses).toEqual({
      received: 'NEW',
      inProduction: 'in_production',
      shipped: 'shipped',
      cancelled: 'CANCELED',
    });
    expect(dialect.errors).toEqual({ member: 'field', form: 'dot' });
  });

  it('keeps the reference where a v2 profile says nothing; the quote body follows the order body', () => {
    const { dialect } = load({ version: 2, dialect: { orderBody: { items: '/lines' } } });
    expect(dialect).toEqual({
      ...REFERENCE_DIALECT,
      orderBody: { ...REFERENCE_DIALECT.orderBody, items: '/lines' },
      quoteBody: { ...REFERENCE_DIALECT.orderBody, items: '/lines' },
    });
  });

  it('takes orderCreatedStatus and operations.orderCreate.status together only when they agree', () => {
    const agree = load({
      version: 2,
      dialect: { orderCreatedStatus: 200, operations: { orderCreate: { status: 200 } } },
    });
    expect(agree.dialect.operations.orderCreate.status).toBe(200);
    expect(
      load({ version: 2, dialect: { operations: { orderCreate: { status: 202 } } } }).dialect
        .operations.orderCreate.status,
    ).toBe(202);
    expect(
      errorOf({
        version: 2,
        dialect: { orderCreatedStatus: 200, operations: { orderCreate: { status: 201 } } },
      }),
    ).toBe(
      'p.json: dialect.operations.orderCreate.status: 201 differs from dialect.orderCreatedStatus (200); they are one fact: set only one',
    );
  });

  it('refuses a 204 for an operation whose answer the checks read (a quote, an order, a list)', () => {
    expect(errorOf({ version: 2, dialect: { operations: { quoteCreate: { status: 204 } } } })).toBe(
      "p.json: dialect.operations.quoteCreate.status: 204 answers with no body, and the checks read this operation's answer; only orderCancel and webhookEndpointDelete may answer 204",
    );
    expect(errorOf({ version: 2, dialect: { orderCreatedStatus: 204 } })).toMatch(
      /^p\.json: dialect\.operations\.orderCreate\.status: 204 answers with no body/,
    );
    expect(
      load({ version: 2, dialect: { operations: { orderCancel: { status: 204 } } } }).dialect
        .operations.orderCancel.status,
    ).toBe(204);
  });

  it('lets a profile change a method only where the document does not fix it; one it fixes is loaded, ignored and said once', () => {
    const moved = load({
      version: 2,
      dialect: { operations: { orderCancel: { method: 'DELETE' } } },
    });
    expect(moved.dialect.operations.orderCancel).toEqual({ method: 'POST', status: 200 });
    expect(moved.notice).toBe(
      'p.json: dialect.operations.orderCancel.method is ignored: the API document fixes it (section 4) and every check uses its value, so a target that answers only where the profile says fails those checks (dialect.operations.orderCancel.method "DELETE" for POST); remove it from the profile',
    );
    // Saying the fixed method again is no change, and still said once.
    const same = load({
      version: 2,
      dialect: { operations: { orderCancel: { method: 'POST', status: 204 } } },
    });
    expect(same.dialect.operations.orderCancel).toEqual({ method: 'POST', status: 204 });
    expect(same.notice).toBe(
      'p.json: dialect.operations.orderCancel.method is ignored: the API document fixes it (section 4) and every check uses its value; remove it from the profile',
    );
    const open = load({ version: 2, dialect: { operations: { eventList: { method: 'POST' } } } });
    expect(open.dialect.operations.eventList.method).toBe('POST');
    expect(open.notice).toBeUndefined();
  });

  it('loads the paths of the endpoint table an older profile sets, ignores them and says so once', () => {
    const old = load({
      dialect: {
        paths: {
          token: '/oauth/token',
          orders: '/purchase-orders',
          orderByExternalId: '/purchase-orders?external_id={external_id}',
          shipments: '/shipments?order_id={id}',
        },
      },
    });
    expect(old.dialect.paths).toEqual({
      ...REFERENCE_DIALECT.paths,
      shipments: '/shipments?order_id={id}',
    });
    expect(pathOf(old.dialect, 'orders')).toBe('/orders');
    expect(pathOf(old.dialect, 'orderByExternalId', { external_id: 'a b' })).toBe(
      '/orders/by-external-id/a%20b',
    );
    expect(old.notice).toBe(
      'p.json: dialect.paths.token, dialect.paths.orders, dialect.paths.orderByExternalId are ignored: the API document fixes them (section 4) and every check uses its value, so a target that answers only where the profile says fails those checks (dialect.paths.orders "/purchase-orders" for /orders; dialect.paths.orderByExternalId "/purchase-orders?external_id={external_id}" for /orders/by-external-id/{external_id}); remove them from the profile',
    );
    // The bundled reference profile sets none of them.
    expect(loadProfile('reference', '--profile', emptyDir()).notice).toBeUndefined();
  });

  it('refuses a path the profile may set outside the start the document fixes for it', () => {
    expect(errorOf({ dialect: { paths: { catalogProducts: '/products' } } })).toMatch(
      /^p\.json: dialect\.paths\.catalogProducts: must be \/catalog or below it: the API document fixes that start/,
    );
    expect(errorOf({ dialect: { paths: { webhookEndpoint: '/hooks/{id}' } } })).toMatch(
      /^p\.json: dialect\.paths\.webhookEndpoint: must be \/webhook-endpoints or below it/,
    );
    expect(errorOf({ dialect: { paths: { event: '/eventsx/{id}' } } })).toMatch(
      /^p\.json: dialect\.paths\.event: must be \/events or below it/,
    );
    const below = load({
      dialect: {
        paths: {
          catalogProducts: '/catalog',
          catalogProduct: '/catalog/item?sku={sku}',
          webhookEndpoint: '/webhook-endpoints?id={id}',
          event: '/events/by-uid/{id}',
        },
      },
    });
    expect(below.dialect.paths.catalogProduct).toBe('/catalog/item?sku={sku}');
  });

  it('takes success statuses 200..299 only (204 included)', () => {
    expect(
      load({ version: 2, dialect: { operations: { webhookEndpointDelete: { status: 204 } } } })
        .dialect.operations.webhookEndpointDelete.status,
    ).toBe(204);
    expect(
      errorOf({ version: 2, dialect: { operations: { orderRead: { status: 302 } } } }),
    ).toMatch(/^p\.json: dialect\.operations\.orderRead\.status: /);
    expect(errorOf({ version: 2, dialect: { operations: { orderRaed: {} } } })).toBe(
      'p.json: dialect.operations.orderRaed: unknown setting',
    );
  });

  it('refuses a list envelope that could not tell the last page, and clashing list members', () => {
    expect(errorOf({ version: 2, dialect: { list: { hasMore: null, nextCursor: null } } })).toBe(
      'p.json: dialect.list: hasMore and nextCursor are both null: keep at least one, or the suite cannot tell the last page',
    );
    expect(errorOf({ version: 2, dialect: { list: { hasMore: '/data/more' } } })).toMatch(
      /^p\.json: dialect\.list\.items: \/data clashes with list\.hasMore/,
    );
    expect(errorOf({ version: 2, dialect: { list: { cursorParam: 'limit' } } })).toMatch(
      /^p\.json: dialect\.list\.cursorParam: is the same parameter as limitParam/,
    );
    expect(errorOf({ version: 2, dialect: { list: { maxLimit: 0 } } })).toMatch(
      /^p\.json: dialect\.list\.maxLimit: /,
    );
  });

  it('refuses names that two states or kinds would share, and bad enums', () => {
    expect(errorOf({ version: 2, dialect: { orderStatuses: { shipped: 'received' } } })).toMatch(
      /^p\.json: dialect\.orderStatuses\.shipped: "received" is also orderStatuses\.received/,
    );
    expect(
      errorOf({ version: 2, dialect: { eventKinds: { orderCancelled: 'order.created' } } }),
    ).toMatch(/^p\.json: dialect\.eventKinds\.orderCancelled: /);
    const message = errorOf({
      version: 2,
      dialect: { money: { format: 'float' }, errors: { form: 'xpath', member: 'detail' } },
    });
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^p\.json: dialect\.money\.format: /),
      'p.json: dialect.errors.member: cannot be detail (the API document puts the text there)',
      expect.stringMatching(/^p\.json: dialect\.errors\.form: /),
    ]);
  });

  it('refuses a webhook endpoint body with the URL inside the event list; null takes no list', () => {
    expect(
      errorOf({
        version: 2,
        dialect: { webhookEndpointBody: { url: '/hook', events: '/hook/kinds' } },
      }),
    ).toMatch(
      /^p\.json: dialect\.webhookEndpointBody\.url: \/hook clashes with webhookEndpointBody\.events/,
    );
    expect(
      load({ version: 2, dialect: { webhookEndpointBody: { url: '/hook', events: null } } }).dialect
        .webhookEndpointBody,
    ).toEqual({ url: '/hook', events: null });
  });

  it('refuses every v2 section in a v1 profile, each on its own line', () => {
    const { version: _, ...v1 } = full;
    const lines = errorOf(v1).split('\n');
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(line).toMatch(/is a profile v2 section: add "version": 2/);
  });

  it('a quote body may use /external_id (only the order body has it)', () => {
    expect(
      load({ version: 2, dialect: { quoteBody: { items: '/external_id' } } }).dialect.quoteBody
        .items,
    ).toBe('/external_id');
  });
});

describe('money per place: one format for all, each place may differ', () => {
  it('a place states what differs, member by member; the others keep the format of all', () => {
    const { dialect } = load({
      version: 2,
      dialect: {
        money: {
          format: 'object',
          currency: '/ccy',
          maxOrderValue: { format: 'cents' },
          totals: { amount: '/value' },
          prices: {},
        },
      },
    });
    // Kept as given (an empty place says nothing): both readers resolve it alike.
    expect(dialect.money).toEqual({
      format: 'object',
      amount: '/amount',
      currency: '/ccy',
      maxOrderValue: { format: 'cents' },
      totals: { amount: '/value' },
    });
    expect(moneyAt(dialect.money, 'maxOrderValue').format).toBe('cents');
    expect(moneyAt(dialect.money, 'totals')).toEqual({
      format: 'object',
      amount: '/value',
      currency: '/ccy',
    });
    expect(moneyAt(dialect.money, 'prices')).toEqual({
      format: 'object',
      amount: '/amount',
      currency: '/ccy',
    });
    expect(centsIn(moneyAt(dialect.money, 'totals'), { value: 1234, ccy: 'USD' })).toBe(1234);
    expect(centsIn(moneyAt(dialect.money, 'maxOrderValue'), 500_000)).toBe(500_000);
  });

  it('no place stated: every place is the one format (the reference: objects)', () => {
    for (const place of MONEY_PLACES)
      expect(moneyAt(REFERENCE_DIALECT.money, place)).toEqual({
        format: 'object',
        amount: '/amount',
        currency: '/currency',
      });
    const { dialect } = load({ version: 2, dialect: { money: { format: 'decimal' } } });
    for (const place of MONEY_PLACES) expect(moneyAt(dialect.money, place).format).toBe('decimal');
  });

  it('an unknown place or member, a bad format at a place: one line naming it', () => {
    expect(errorOf({ version: 2, dialect: { money: { shipping: { format: 'cents' } } } })).toMatch(
      /^p\.json: dialect\.money\.shipping: unknown setting/,
    );
    expect(errorOf({ version: 2, dialect: { money: { prices: { format: 'float' } } } })).toMatch(
      /^p\.json: dialect\.money\.prices\.format: /,
    );
    expect(errorOf({ version: 2, dialect: { money: { totals: { amount: 'x' } } } })).toMatch(
      /^p\.json: dialect\.money\.totals\.amount: must be a JSON pointer/,
    );
  });

  it('the server reads the same profile to the same money (parity of the two readers)', () => {
    const profile = JSON.parse(readFileSync('test/dialects/hooli.json', 'utf8'));
    const { dialect } = load(profile);
    expect(parseServerProfile(profile).money).toEqual(dialect.money);
    expect(parseServerProfile({}).money).toEqual(REFERENCE_DIALECT.money);
  });
});
