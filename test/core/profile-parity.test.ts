import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadProfile } from '../../lib/config/profile.js';
import type { Dialect as SuiteDialect } from '../../lib/target/dialect.js';
import type { Dialect as ServerDialect } from '../../server/dialect/model.js';
import { readProfileFile } from '../../server/dialect/profile.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * The profile format (config/profile.schema.json) has two readers,
 * the suite's (lib/config/profile.ts over lib/target/dialect.ts) and the
 * reference server's (server/dialect/profile.ts over server/dialect/model.ts),
 * which share nothing but the format. Both must read every profile to the
 * same resolved values. Each side is mapped onto one comparable shape; a new
 * dialect field goes in `Resolved` and in both mappings below.
 */
interface Resolved {
  keyPrefix: string;
  docsUrl: string | undefined;
  paths: Record<string, string>;
  operations: Record<string, { method: string; status: number }>;
  accountFields: Record<string, string>;
  orderBody: unknown;
  quoteBody: unknown;
  totals: Record<string, string>;
  webhookEndpointBody: { url: string; events: string | null };
  eventKinds: Record<string, string>;
  answers: Record<string, Record<string, string>>;
  list: {
    items: string;
    hasMore: string | null;
    nextCursor: string | null;
    cursorParam: string;
    limitParam: string;
    maxLimit: number;
  };
  /** The format of every place and, as stated, of each place (totals, prices, maxOrderValue). */
  money: Record<string, unknown>;
  orderStatuses: Record<string, string>;
  errors: { member: string; form: string };
}

/**
 * The resolved shape of either reader's dialect: one projection for both, so a field either
 * reader lacks, or types otherwise, fails to compile.
 */
function resolved(d: SuiteDialect | ServerDialect): Resolved {
  return {
    keyPrefix: d.keyPrefix,
    docsUrl: d.docsUrl,
    paths: { ...d.paths },
    operations: { ...d.operations },
    accountFields: { ...d.accountFields },
    orderBody: d.orderBody,
    quoteBody: d.quoteBody,
    totals: { ...d.totals },
    webhookEndpointBody: { ...d.webhookEndpointBody },
    eventKinds: { ...d.eventKinds },
    answers: { ...d.answers },
    list: { ...d.list },
    money: { ...d.money },
    orderStatuses: { ...d.orderStatuses },
    errors: { ...d.errors },
  };
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIALECT_DIR = join(ROOT, 'test', 'dialects');
const PROFILES = [
  join(ROOT, 'config', 'reference.json'),
  ...readdirSync(DIALECT_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(DIALECT_DIR, name)),
];

function suiteReads(file: string): Resolved {
  return resolved(loadProfile(file, '--profile', ROOT).dialect);
}

function serverReads(file: string): Resolved {
  return resolved(readProfileFile(file));
}

describe('the suite and the reference server read a profile alike', () => {
  it('covers config/reference.json and every dialect of the dialect matrix', () => {
    const names = PROFILES.map((file) => file.slice(ROOT.length).replaceAll('\\', '/'));
    expect(names[0]).toBe('config/reference.json');
    for (const name of ['acme', 'globex', 'initech', 'umbrella', 'wonka'])
      expect(names).toContain(`test/dialects/${name}.json`);
  });

  it.each(PROFILES.map((file) => [file.slice(ROOT.length), file]))(
    '%s resolves to the same values on both sides',
    (_name, file) => {
      const suite = suiteReads(file);
      expect(serverReads(file)).toEqual(suite);
      // Something was compared: every operation has a method and a status on both sides.
      expect(Object.keys(suite.operations).length).toBeGreaterThanOrEqual(19);
    },
  );

  const refusedByBoth: [string, unknown][] = [
    [
      'v1 orderCreatedStatus against v2 operations.orderCreate.status',
      {
        version: 2,
        dialect: { orderCreatedStatus: 200, operations: { orderCreate: { status: 202 } } },
      },
    ],
    ['an unknown dialect setting', { version: 2, dialect: { colour: 'blue' } }],
    [
      'two docs URLs',
      { version: 2, docsUrl: 'https://a.test', dialect: { docsUrl: 'https://b.test' } },
    ],
    [
      'a path without its placeholder',
      { version: 2, dialect: { paths: { shipments: '/orders/x/shipments' } } },
    ],
    [
      'a catalog outside /catalog',
      { version: 2, dialect: { paths: { catalogProducts: '/products' } } },
    ],
    [
      'a 204 where the checks read the answer',
      { version: 2, dialect: { operations: { orderRead: { status: 204 } } } },
    ],
    [
      'a webhook URL holding the event list',
      { version: 2, dialect: { webhookEndpointBody: { url: '/hook', events: '/hook/events' } } },
    ],
    [
      'a list whose items hold hasMore',
      { version: 2, dialect: { list: { items: '/data', hasMore: '/data/more' } } },
    ],
    [
      'a list whose items hold nextCursor',
      { version: 2, dialect: { list: { items: '/page', nextCursor: '/page', hasMore: null } } },
    ],
    [
      'two order states under one name',
      { version: 2, dialect: { orderStatuses: { received: 'new', shipped: 'new' } } },
    ],
    [
      'an order line array on external_id',
      { version: 2, dialect: { orderBody: { items: '/external_id' } } },
    ],
    [
      'sku and quantity in one place',
      { version: 2, dialect: { quoteBody: { sku: '/q', quantity: '/q' } } },
    ],
    ['a key prefix in capitals', { version: 2, dialect: { keyPrefix: 'ACME' } }],
    ['errors pointing from detail', { version: 2, dialect: { errors: { member: 'detail' } } }],
  ];

  it.each(refusedByBoth)('both refuse %s', (_what, profile) => {
    const dir = emptyDir('profile-parity-');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify(profile));
    expect(() => suiteReads(file)).toThrow();
    expect(() => serverReads(file)).toThrow();
  });

  it('agree where a profile sets what the document fixes: both ignore it', () => {
    const dir = emptyDir('profile-parity-');
    const file = join(dir, 'profile.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        dialect: {
          paths: { orders: '/purchase-orders', shipments: '/shipments?order={id}' },
          operations: { orderRead: { method: 'POST', status: 200 } },
        },
      }),
    );
    expect(serverReads(file)).toEqual(suiteReads(file));
    expect(suiteReads(file).operations.orderRead?.method).toBe('GET');
    expect(suiteReads(file).paths).not.toHaveProperty('orders');
  });

  it('agree where a v1 profile gives orderCreatedStatus alone', () => {
    const dir = emptyDir('profile-parity-');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify({ version: 1, dialect: { orderCreatedStatus: 200 } }));
    expect(serverReads(file)).toEqual(suiteReads(file));
    expect(serverReads(file).operations.orderCreate?.status).toBe(200);
  });
});
