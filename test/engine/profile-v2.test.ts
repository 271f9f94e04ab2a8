import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesOf, orderBodyOf } from '../../lib/check/order-body.js';
import { buildRequest } from '../../lib/client/build-request.js';
import { requestClass } from '../../lib/client/key-pacer.js';
import { ConfigError } from '../../lib/config/config-error.js';
import { loadProfile } from '../../lib/config/profile.js';
import { profileJsonSchema } from '../../lib/config/profile-json-schema.js';
import { pathOf, REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { valueAt } from '../../suites/read/account-fields.js';
import { centsIn } from '../../suites/support/order-total.js';
import { emptyDir, runCli } from './support/run-cli.js';

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
      dialect: { keyPrefix: 'acme', paths: { order: '/v2/orders/{id}' }, orderCreatedStatus: 200 },
    });
    expect(dialect).toEqual({
      ...REFERENCE_DIALECT,
      keyPrefix: 'acme',
      orderCreatedStatus: 200,
      paths: { ...REFERENCE_DIALECT.paths, order: '/v2/orders/{id}' },
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
    expect(centsIn(valueAt(order, dialect.totals.order))).toBe(1234);
    expect(centsIn(valueAt({ grand_total: { amount: 999 } }, dialect.totals.quote))).toBe(999);
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
      'conformance: error: p.json: dialect.totals.order: must be a JSON pointer such as "/livemode"',
    ]);
  });
});
