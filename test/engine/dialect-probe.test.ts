import type { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { probeDialect } from '../../lib/probe/dialect-probe.js';
import { mismatchLine } from '../../lib/probe/judge.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import {
  ACCOUNT,
  type Answer,
  API,
  CONTROL_TOKEN,
  probeConfig as config,
  fakeTarget,
  ORDER,
  PRODUCTS,
  type Route,
  SECRET,
  withDialect,
} from './support/fake-dialect-target.js';

/**
 * The dialect probe against a target made of undici MockAgent answers: by
 * default a correct target in the reference dialect; each test changes one
 * answer (or the profile) and expects exactly the mismatch naming the
 * profile field, or none where the answer is no dialect matter.
 */
const agents: MockAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

/** The probe's external id, from the by-external-id read it sent. */
function externalId(seen: readonly string[]): string {
  return /by-external-id\/([^\s?]+)/.exec(seen.join('\n'))?.[1] ?? '(none)';
}

async function probe(
  changes: Partial<Record<Route, Answer>>,
  dialect = REFERENCE_DIALECT,
  partner = false,
) {
  const fake = fakeTarget(changes, dialect);
  agents.push(fake.agent);
  const result = await probeDialect(config(dialect, partner), fake.agent);
  return { ...result, fake, lines: result.mismatches.map(mismatchLine) };
}

describe('dialect probe: a correct target in the profile dialect passes silently', () => {
  it('control API: a fresh account and key, every path the checks read, no mismatch, no note', async () => {
    const result = await probe({});
    expect(result.mismatches).toEqual([]);
    expect(result.notes).toEqual([]);
    const seen = result.fake.seen.map(
      (s) => `${s.split(' ')[0]} ${s.split(' ')[1]?.split('?')[0]}`,
    );
    const byId = `GET ${API}/orders/by-external-id/${externalId(result.fake.seen)}`;
    expect([...seen].sort()).toEqual(
      [
        'POST /__control/accounts',
        'POST /__control/accounts/acc_1/keys',
        `POST ${API}/oauth/token`,
        `GET ${API}/account`,
        `GET ${API}/catalog/products`,
        `GET ${API}/catalog/products/SKU-1`,
        `POST ${API}/orders`,
        `GET ${API}/orders/ord_1`,
        byId,
        `POST ${API}/quotes`,
        `GET ${API}/quotes/quo_1`,
        `POST ${API}/orders/ord_1/cancel`,
        `GET ${API}/orders`,
      ].sort(),
    );
    // The account, key and token first, one after another; what needs only the token goes out
    // together; each request after what it needs (the order before its reads, quote and cancel).
    expect(seen.slice(0, 3)).toEqual([
      'POST /__control/accounts',
      'POST /__control/accounts/acc_1/keys',
      `POST ${API}/oauth/token`,
    ]);
    const at = (request: string) => seen.indexOf(request);
    for (const [before, after] of [
      [`POST ${API}/orders`, `GET ${API}/orders/ord_1`],
      [`GET ${API}/orders/ord_1`, byId],
      [`GET ${API}/orders/ord_1`, `POST ${API}/quotes`],
      [byId, `POST ${API}/orders/ord_1/cancel`],
      [`POST ${API}/quotes`, `GET ${API}/quotes/quo_1`],
    ] as const) {
      expect(at(before)).toBeLessThan(at(after));
    }
    expect(result.requests).toBe(13);
    // The order and the quote of the profile's bodies were taken: later refusals of them are the target's.
    expect(result.seen).toEqual(['orderBody', 'quoteBody']);
    // Its exchanges are evidence, redacted like a check's.
    expect(result.evidence).toHaveLength(13);
    const text = JSON.stringify(result.evidence);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(CONTROL_TOKEN);
    expect(text).not.toContain('probeTokenNeverShown');
  });

  it('another dialect, described by its profile, passes too', async () => {
    const dialect = withDialect((d) => {
      d.paths.catalogProducts = '/catalog/items';
      d.paths.catalogProduct = '/catalog/items/{sku}';
      d.orderBody = { ...d.orderBody, items: '/lines', sku: '/product' };
      d.operations.orderCreate.status = 200;
      d.answers.order.id = '/order_id';
      d.totals.order = '/amounts/total';
      d.money = { ...d.money, format: 'decimal' };
      d.accountFields.livemode = '/mode/live';
      d.accountFields.maxOrderValue = '/limits/max_value';
      d.list = { ...d.list, items: '/items', hasMore: null, nextCursor: '/next' };
      d.orderStatuses.received = 'new';
    });
    const order = { order_id: 'ord_1', status: 'new', amounts: { total: '10.00' } };
    const result = await probe(
      {
        account: {
          status: 200,
          body: {
            mode: { live: false },
            billing_method: 'invoice',
            limits: { max_value: '5000.00', max_orders_per_day: 3 },
            scopes: [],
          },
        },
        catalog: { status: 200, body: { items: [{ ...PRODUCTS[0], unit_price: '5.00' }] } },
        catalogProduct: { status: 200, body: { ...PRODUCTS[0], unit_price: '5.00' } },
        orderCreate: { status: 200, body: order },
        orderRead: { status: 200, body: order },
        orderList: { status: 200, body: { items: [order] } },
      },
      dialect,
    );
    expect(result.lines).toEqual([]);
    expect(result.notes).toEqual([]);
    // The order goes where the document says, in the profile's body.
    const sent = [...result.fake.bodies.entries()].find(([k]) => k === `POST ${API}/orders`);
    expect(JSON.parse(sent?.[1] ?? '{}')).toMatchObject({
      lines: [{ product: 'SKU-1', quantity: 2 }],
    });
  });
});

describe('dialect probe: one line per mismatch, naming the profile field', () => {
  it("a control API key of another prefix: dialect.keyPrefix, the key's id not quoted", async () => {
    const { lines } = await probe({
      createKey: {
        status: 201,
        body: { access_key_id: 'umb_test_ak_probe', secret_key: SECRET, mode: 'test', scopes: [] },
      },
    });
    expect(lines).toEqual([
      'dialect mismatch: dialect.keyPrefix: the control API made a key with the prefix "umb" (umb_test_ak_…), where the profile says "odp"',
    ]);
  });

  it('an account field elsewhere: dialect.accountFields.<name>, with the members the target shows', async () => {
    const { lines } = await probe({
      account: { status: 200, body: { ...ACCOUNT, livemode: undefined, is_live: false } },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dialect.accountFields.livemode');
    expect(lines[0]).toContain('nothing at /livemode');
    expect(lines[0]).toContain('is_live');
  });

  it('money in another format at every place: one line, dialect.money.format', async () => {
    const dialect = withDialect((d) => {
      d.money.format = 'cents';
    });
    const { lines } = await probe({}, dialect);
    // The target shows {amount, currency} everywhere: the profile said cents.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^dialect mismatch: dialect\.money\.format: /);
    expect(lines[0]).toContain('/limits/max_order_value');
    expect(lines[0]).toContain('/catalog/products/SKU-1 at /unit_price');
    expect(lines[0]).toContain('/orders at /total');
  });

  it('money in another format at one place: dialect.money.<place>, and its profile passes it', async () => {
    const account = {
      status: 200,
      body: { ...ACCOUNT, limits: { max_order_value: 500000, max_orders_per_day: 100 } },
    };
    const { lines } = await probe({ account });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^dialect mismatch: dialect\.money\.maxOrderValue\.format: /);
    expect(lines[0]).toContain('500000');
    const told = withDialect((d) => {
      d.money.maxOrderValue = { format: 'cents' };
    });
    expect((await probe({ account }, told)).lines).toEqual([]);
    // An object with other members at one place names that place, not its format.
    const totals = withDialect((d) => {
      d.money.totals = { amount: '/value' };
    });
    const other = await probe({}, totals);
    expect(other.lines).toHaveLength(1);
    expect(other.lines[0]).toMatch(/^dialect mismatch: dialect\.money\.totals: /);
  });

  it('a catalog elsewhere: dialect.paths.catalogProducts and catalogProduct, never a failure', async () => {
    const result = await probe({
      catalog: { status: 404, body: { code: 'not_found' } },
      catalogProduct: { status: 404, body: { code: 'not_found' } },
    });
    expect(result.lines).toEqual([
      `dialect mismatch: dialect.paths.catalogProducts: GET ${API}/catalog/products?limit=100 answered 404 not_found`,
      `dialect mismatch: dialect.paths.catalogProduct: GET ${API}/catalog/products/SKU-1 answered 404 not_found`,
    ]);
  });

  it('a 422 to the quote of the order the target took: the quote body fields its errors[] point at', async () => {
    const result = await probe({
      quoteCreate: {
        status: 422,
        body: {
          code: 'validation_failed',
          errors: [
            { pointer: '/cart', detail: 'is required' },
            { pointer: '/items', detail: 'unknown' },
          ],
        },
      },
    });
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/^dialect mismatch: dialect\.quoteBody\.items: POST /);
    expect(result.lines[0]).toContain('to a quote of the profile');
    expect(result.lines[0]).toContain('errors[] at /cart, /items');
    expect(result.seen).toEqual(['orderBody']);
  });

  it("an order read by the profile's id pointer answers 404, and another member reads it: dialect.answers.order.id", async () => {
    const order = { ...ORDER, id: 'internal-7', ref: 'ord_1' };
    const result = await probe({
      orderCreate: { status: 201, body: order },
      orderRead: { status: 200, body: order },
    });
    expect(result.lines).toEqual([
      expect.stringMatching(
        /^dialect mismatch: dialect\.answers\.order\.id: GET \/api\/on-demand\/v1\/orders\/internal-7 answered 404 for the order just made, and GET \/api\/on-demand\/v1\/orders\/ord_1 read it back: the target shows the order's id at \/ref$/,
      ),
    ]);
  });
  it('a list without the items array: dialect.list.items; without has-more: dialect.list.hasMore', async () => {
    const { lines } = await probe({
      orderList: { status: 200, body: { items: [ORDER], next_cursor: null } },
    });
    expect(lines.map((l) => l.split(':')[1]?.trim())).toEqual([
      'dialect.list.items',
      'dialect.list.hasMore',
    ]);
    expect(lines[0]).toContain('items, next_cursor');
  });

  it('a page size parameter the target refuses: dialect.list.limitParam', async () => {
    const { lines } = await probe({ orderList: { status: 400, body: { code: 'bad_request' } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dialect.list.limitParam');
  });

  it('a 422 to the order body: the fields its errors[] point at, every pointer quoted', async () => {
    const dialect = withDialect((d) => {
      d.orderBody = { ...d.orderBody, items: '/lines' };
    });
    const { lines } = await probe(
      {
        orderCreate: {
          status: 422,
          body: {
            code: 'validation_failed',
            errors: [
              { pointer: '/items', detail: 'is required' },
              { pointer: '/lines', detail: 'is not a field' },
            ],
          },
        },
      },
      dialect,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dialect.orderBody.items:');
    expect(lines[0]).toContain('422 validation_failed');
    expect(lines[0]).toContain('errors[] at /items, /lines');
  });

  it("errors[] pointers in another form are read in the profile's form", async () => {
    const dialect = withDialect((d) => {
      d.errors = { member: 'field', form: 'bracket' };
    });
    const { lines } = await probe(
      {
        orderCreate: {
          status: 422,
          body: { code: 'validation_failed', errors: [{ field: 'items[0].sku' }] },
        },
      },
      dialect,
    );
    expect(lines[0]).toContain('dialect.orderBody.sku:');
    expect(lines[0]).toContain('errors[] at /items/0/sku');
  });

  it('errors[] entries with the pointer under another member: their members are named, and dialect.errors.member', async () => {
    const { lines } = await probe({
      orderCreate: {
        status: 422,
        body: {
          code: 'validation_failed',
          detail: 'The request body is not valid; see errors.',
          errors: [{ detail: 'basket is required.', loc: 'basket' }],
        },
      },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'no errors[] pointer (its 1 errors[] entries have the members detail, loc',
    );
    expect(lines[0]).toContain('"loc":"basket"');
    expect(lines[0]).toContain('dialect.errors.member');
  });

  it('another first-creation status: dialect.orderCreatedStatus', async () => {
    const { lines } = await probe({ orderCreate: { status: 200, body: ORDER } });
    expect(lines).toEqual([
      `dialect mismatch: dialect.orderCreatedStatus: POST ${API}/orders answered 200 to a first creation; the profile says 201`,
    ]);
  });

  it('an order answer without id, status or total where the profile says: answers and totals', async () => {
    const odd = { order_id: 'ord_1', state: 'received', sum: 10 };
    const { lines } = await probe({ orderCreate: { status: 201, body: odd } });
    expect(lines.map((l) => l.split(':')[1]?.trim())).toEqual([
      'dialect.answers.order.id',
      'dialect.answers.order.status',
      'dialect.totals.order',
    ]);
    expect(lines[0]).toContain('order_id, state, sum');
  });

  it('never quotes a secret the target echoes', async () => {
    const { lines } = await probe({
      orderCreate: { status: 201, body: { ...ORDER, status: `echo ${SECRET}` } },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dialect.orderStatuses');
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toContain('[REDACTED');
  });

  it('a state name the profile does not know: dialect.orderStatuses', async () => {
    const { lines } = await probe({
      orderCreate: { status: 201, body: { ...ORDER, status: 'NEW' } },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dialect.orderStatuses');
    expect(lines[0]).toContain('"NEW"');
  });
});

describe('dialect probe: what the document fixes is a note, never a mismatch: the checks judge it', () => {
  it.each([
    ['account', `GET ${API}/account`],
    ['orderByExternalId', `GET ${API}/orders/by-external-id/`],
    ['orderList', `GET ${API}/orders?limit=1`],
    ['quoteCreate', `POST ${API}/quotes`],
    ['quoteRead', `GET ${API}/quotes/quo_1`],
    ['orderCancel', `POST ${API}/orders/ord_1/cancel`],
    ['orderCreate', `POST ${API}/orders`],
  ] as const)(
    '%s answering 404: a note naming the path, the run goes on',
    async (route, request) => {
      const result = await probe({ [route]: { status: 404, body: { code: 'not_found' } } });
      expect(result.mismatches).toEqual([]);
      const note = result.notes.find((n) => n.startsWith(request));
      expect(note, result.notes.join('\n')).toContain(
        'answered 404 not_found at a path the API document fixes (section 4): no dialect matter, the checks judge it',
      );
    },
  );

  it('an account without the object limits the document fixes: a note, never dialect.accountFields', async () => {
    const { limits, ...flat } = ACCOUNT;
    const result = await probe({ account: { status: 200, body: { ...flat, ...limits } } });
    expect(result.mismatches).toEqual([]);
    expect(result.notes).toEqual([
      `GET ${API}/account shows no object limits, where the API document puts the order limits (section 2): no dialect matter, the checks judge it`,
    ]);
  });

  it('an account showing nothing like a field: a note; a limit named otherwise inside limits: a mismatch', async () => {
    const { livemode: _gone, ...rest } = ACCOUNT;
    const none = await probe({ account: { status: 200, body: rest } });
    expect(none.mismatches).toEqual([]);
    expect(none.notes.join('\n')).toContain(
      'shows nothing at /livemode (dialect.accountFields.livemode) and no member like it: no dialect matter the probe can tell, the checks judge it',
    );
    const renamed = await probe({
      account: {
        status: 200,
        body: { ...ACCOUNT, limits: { max_order_value: ACCOUNT.limits.max_order_value, daily: 3 } },
      },
    });
    expect(renamed.lines).toEqual([
      expect.stringMatching(
        /^dialect mismatch: dialect\.accountFields\.maxOrdersPerDay: GET .*\/account shows nothing at \/limits\/max_orders_per_day, and something like it at \/limits\/daily/,
      ),
    ]);
  });

  it('a token path that answers 404: a note, and nothing more is sent', async () => {
    const result = await probe({ token: { status: 404, body: { code: 'not_found' } } });
    expect(result.mismatches).toEqual([]);
    expect(result.notes).toEqual([
      `POST ${API}/oauth/token answered 404 not_found at a path the API document fixes (section 4): no dialect matter, the checks judge it; every check needs a token`,
    ]);
    expect(result.requests).toBe(3);
  });

  it('an order read that answers 404 where no other member of the answer reads the order: a note', async () => {
    const result = await probe({ orderRead: { status: 404, body: { code: 'not_found' } } });
    expect(result.mismatches).toEqual([]);
    expect(result.notes.join('\n')).toContain(
      `GET ${API}/orders/ord_1 answered 404 not_found at a path the API document fixes`,
    );
  });

  it.each([
    [400, 'bad_request'],
    [415, 'unsupported_media_type'],
  ])(
    'a valid order refused %i %s: the document answers a body problem with 422, so a note',
    async (status, code) => {
      const result = await probe({
        orderCreate: { status, body: { code, errors: [{ pointer: '/items', detail: 'x' }] } },
      });
      expect(result.mismatches).toEqual([]);
      expect(result.notes.join('\n')).toContain(
        `answered HTTP ${status} ${code} to a valid order of the profile's shape, where the API document answers a body it cannot take with 422 validation_failed`,
      );
      expect(result.seen).toEqual([]);
    },
  );

  it('a quote refused 422 for a limit: a note, the quote body not seen', async () => {
    const result = await probe({
      quoteCreate: {
        status: 422,
        body: { code: 'validation_failed', detail: 'over the maximum order value' },
      },
    });
    expect(result.mismatches).toEqual([]);
    expect(result.notes.join('\n')).toContain(`POST ${API}/quotes got HTTP 422`);
    expect(result.seen).toEqual(['orderBody']);
  });
});

describe('dialect probe: what is no dialect matter is a note, never a mismatch', () => {
  it('a refused token: a note, nothing more is sent', async () => {
    const result = await probe({ token: { status: 401, body: { code: 'invalid_client' } } });
    expect(result.mismatches).toEqual([]);
    expect(result.notes[0]).toContain('no token (HTTP 401 invalid_client)');
    expect(result.requests).toBe(3);
  });

  it.each([401, 402, 403, 409, 429, 500])('an order refused with %i: a note', async (status) => {
    const result = await probe({ orderCreate: { status, body: { code: 'whatever' } } });
    expect(result.mismatches).toEqual([]);
    expect(result.notes.join()).toContain(`HTTP ${status}`);
  });

  it('partner mode: the catalog through the profile, the order cancelled again', async () => {
    const result = await probe({}, REFERENCE_DIALECT, true);
    expect(result.mismatches).toEqual([]);
    expect(result.fake.seen.some((s) => s.startsWith(`GET ${API}/catalog/products`))).toBe(true);
    // Cancelled once, by the probe's own step (the clean-up finds it done).
    expect(result.fake.seen.filter((s) => s.endsWith('/orders/ord_1/cancel'))).toEqual([
      `POST ${API}/orders/ord_1/cancel`,
    ]);
    // Every request used the partner key: the checks' pacer counts them.
    expect(
      result.partnerSent
        .map((s) => s.kind)
        .slice()
        .sort(),
    ).toEqual(
      [
        'token',
        'read', // account
        'read', // catalog page
        'read', // catalog product
        'write', // order
        'read', // order read
        'read', // by external id
        'write', // quote
        'read', // quote read
        'write', // cancel
        'read', // order list
      ].sort(),
    );
    // Without the control API's products, the order waits for the catalog: the token comes first.
    expect(result.partnerSent[0]?.kind).toBe('token');
  });

  it('a partner live key places no order', async () => {
    const fake = fakeTarget();
    agents.push(fake.agent);
    const result = await probeDialect(
      {
        ...config(REFERENCE_DIALECT, true),
        partnerKey: { accessKeyId: 'odp_live_ak_partner', secretKey: SECRET },
      },
      fake.agent,
    );
    expect(result.mismatches).toEqual([]);
    expect(fake.seen.some((s) => s.startsWith('POST') && s.includes('/orders'))).toBe(false);
    expect(result.notes.join()).toContain('live key');
  });

  it("an order over the account's maximum order value: a note", async () => {
    const result = await probe({
      orderCreate: {
        status: 422,
        body: {
          code: 'validation_failed',
          detail: 'The order total exceeds the maximum order value of $5.00.',
          errors: [{ pointer: '/items', detail: 'exceeds the maximum order value' }],
        },
      },
    });
    expect(result.mismatches).toEqual([]);
    expect(result.notes.join()).toContain('HTTP 422');
  });

  it('a daily limit reached in the partner sandbox: a note', async () => {
    const result = await probe(
      {
        orderCreate: {
          status: 422,
          body: { code: 'validation_failed', detail: 'maximum orders per day reached' },
        },
      },
      REFERENCE_DIALECT,
      true,
    );
    expect(result.mismatches).toEqual([]);
    expect(result.notes.join()).toContain('HTTP 422');
  });
});
