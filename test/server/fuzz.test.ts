import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { API_CODES } from '../../server/problems/codes.js';
import {
  API,
  CONTROL_TOKEN,
  harness,
  type Method,
  orderBody,
  type Partner,
} from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

const DOCUMENTED = new Set(Object.keys(API_CODES));
const NUM_RUNS = 300;

let partner: Partner;
beforeAll(async () => {
  partner = await h.partner({
    rate_limits: { read: 1_000_000, write: 1_000_000, token: 1_000_000 },
    limits: { max_orders_per_day: 1_000_000 },
  });
});

/** Bad input never gets a 500 or a stack trace; every refusal is a documented problem. */
async function expectNoServerError(options: InjectOptions): Promise<void> {
  const reply = await app.inject(options);
  const context = `${options.method} ${options.url} → ${reply.statusCode} ${reply.body.slice(0, 300)}`;
  expect(reply.statusCode, context).toBeLessThan(500);
  if (reply.statusCode >= 400 && options.method !== 'HEAD') {
    expect(reply.headers['content-type'], context).toMatch(/^application\/problem\+json/);
    const body = reply.json();
    expect(DOCUMENTED.has(body.code), context).toBe(true);
    expect(body.status, context).toBe(reply.statusCode);
    expect(reply.body, context).not.toMatch(/\bat .+:\d+:\d+/);
  }
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});

const method = fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', 'PUT', 'HEAD', 'OPTIONS');

const segment = fc.oneof(
  fc.constantFrom(
    'orders',
    'by-external-id',
    'cancel',
    'shipments',
    'invoice',
    'catalog',
    'products',
    'quotes',
    'events',
    'webhook-endpoints',
    'account',
    'oauth',
    'token',
    'ord_x',
    '..',
    '.',
    '',
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '%C0%AF', ';', '~'),
);

const path = fc
  .tuple(
    fc.array(segment, { minLength: 0, maxLength: 5 }),
    fc.option(
      printable.map((q) => q.replaceAll(' ', '+').replaceAll('#', '')),
      { nil: undefined },
    ),
  )
  .map(
    ([segments, query]) => `${API}/${segments.join('/')}${query === undefined ? '' : `?${query}`}`,
  );

const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
  ),
  printable,
);

const rawBody = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 500 }),
  fc.uint8Array({ maxLength: 500 }).map((bytes) => Buffer.from(bytes)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

/** An order body with some fields replaced by anything: the shapes a confused client sends. */
const mutatedOrder = fc
  .tuple(
    fc.dictionary(
      fc.constantFrom(
        'external_id',
        'items',
        'shipping_address',
        'extra',
        '__proto__',
        'constructor',
      ),
      fc.jsonValue(),
      { maxKeys: 3 },
    ),
    fc.array(
      fc.record({
        sku: fc.oneof(
          fc.string(),
          fc.constantFrom('MUG-WHT-11OZ', 'STICKER-SHEET', 'CANVAS-XL-FRAMED'),
        ),
        quantity: fc.oneof(fc.integer(), fc.double(), fc.string()),
      }),
      { maxLength: 4 },
    ),
  )
  .map(([replacements, items]) => JSON.stringify({ ...orderBody({ items }), ...replacements }));

describe('fuzz: no input gets a 500', () => {
  it('random methods, paths, headers and bodies, with a valid token', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        contentType,
        rawBody,
        printable,
        async (m, url, type, payload, idempotencyKey) => {
          const headers: Record<string, string> = {
            authorization: `Bearer ${partner.token}`,
            'idempotency-key': idempotencyKey,
          };
          if (type !== '') headers['content-type'] = type;
          await expectNoServerError({
            method: m as Method,
            url,
            headers,
            payload,
          });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('order-shaped bodies with fields of every type', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedOrder, fc.uuid(), async (payload, key) => {
        await expectNoServerError({
          method: 'POST',
          url: `${API}/orders`,
          headers: {
            authorization: `Bearer ${partner.token}`,
            'idempotency-key': key,
            'content-type': 'application/json',
          },
          payload,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('random Authorization and token-request forms', async () => {
    const authorization = fc.oneof(
      printable,
      printable.map((s) => `Bearer ${s}`),
      fc.string({ maxLength: 80 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
      printable.map((s) => `Basic ${s}`),
    );
    const form = fc.oneof(
      printable,
      fc
        .dictionary(fc.constantFrom('grant_type', 'scope', 'client_id', 'x'), printable)
        .map((d) => new URLSearchParams(d).toString()),
    );
    await fc.assert(
      fc.asyncProperty(
        authorization,
        form,
        fc.constantFrom('/oauth/token', '/account', '/orders'),
        async (auth, body, route) => {
          await expectNoServerError({
            method: route === '/account' ? 'GET' : 'POST',
            url: `${API}${route}`,
            headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
            payload: body,
          });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('repeated and odd headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(printable, { minLength: 2, maxLength: 3 }),
        fc.array(printable, { minLength: 1, maxLength: 3 }),
        async (keys, types) => {
          await expectNoServerError({
            method: 'POST',
            url: `${API}/orders`,
            headers: {
              authorization: `Bearer ${partner.token}`,
              'idempotency-key': keys,
              'content-type': types,
            } as never,
            payload: JSON.stringify(orderBody()),
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
