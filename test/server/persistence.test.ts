import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openDatabase } from '../../server/store/db.js';
import { SqliteStore } from '../../server/store/index.js';
import { SCHEMA_V1, SCHEMA_VERSION } from '../../server/store/schema.js';
import { emptyDir } from '../support/temp-dir.js';
import { CONTROL_TOKEN, harness, orderBody } from './support/harness.js';

const dir = emptyDir('reference-persist-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, 'reference.db');

describe('storage survives a restart', () => {
  it('keeps accounts, keys, tokens, orders, idempotency records and events; stores no secret in clear', async () => {
    const before = await buildApp({ controlToken: CONTROL_TOKEN, db });
    let closed = false;
    onTestFinished(async () => {
      if (!closed) await before.close();
    });
    const h1 = harness(before);
    const partner = await h1.partner({ name: 'Persistent Partner' });
    const body = orderBody();
    const order = await h1.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'persist-1',
      body: body as never,
    });
    expect(order.status).toBe(201);
    const advancedTo = Date.parse(await h1.advance(partner.accountId, 600));
    await h1.api('POST', '/webhook-endpoints', {
      token: partner.token,
      body: { url: 'https://example.com/h' },
    });

    // A second server on the same file is refused while the first holds it.
    await expect(buildApp({ db })).rejects.toThrow(/in use by another process/);

    await before.close();
    closed = true;

    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(partner.key.secret_key), file).toBe(false);
      expect(bytes.includes(partner.token), file).toBe(false);
      expect(bytes.includes(CONTROL_TOKEN), file).toBe(false);
    }

    const after = await buildApp({ controlToken: CONTROL_TOKEN, db });
    onTestFinished(() => after.close());
    const h2 = harness(after);
    const account = await h2.api('GET', '/account', { token: partner.token });
    expect(account.body.name).toBe('Persistent Partner');
    const replay = await h2.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: 'persist-1',
      body: body as never,
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(order.body);
    expect((await h2.api('GET', '/events', { token: partner.token })).body.data).toHaveLength(1);
    expect(
      (await h2.api('GET', '/webhook-endpoints', { token: partner.token })).body.data,
    ).toHaveLength(1);
    // The account clock's advance survived too: it reads no earlier than where it was moved to
    // (compared with the account's own clock, not the wall clock, so a slow machine cannot fail it).
    const { now } = (await h2.control('GET', `/accounts/${partner.accountId}`)).body;
    expect(Date.parse(now)).toBeGreaterThanOrEqual(advancedTo);
    expect((await h2.token(partner.key)).startsWith('odp_at_')).toBe(true);
  });
});

describe('durability: a file database fsyncs every commit unless relaxed', () => {
  it.each([
    [undefined, 2],
    ['durable', 2],
    ['relaxed', 1],
  ] as const)(
    'durability %s runs synchronous = %i (2 FULL: WAL fsynced at commit; 1 NORMAL: not)',
    (durability, level) => {
      const store = new SqliteStore(join(dir, `sync-${durability ?? 'default'}.db`), durability);
      onTestFinished(() => store.close());
      expect(store.db.pragma('synchronous', { simple: true })).toBe(level);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    },
  );
});

describe('a database of schema version 1 is migrated', () => {
  it('gets the charges table (version 2) and keeps what it held', () => {
    const file = join(dir, 'version-1.db');
    const old = new Database(file);
    old.exec(SCHEMA_V1);
    old.pragma('user_version = 1');
    old
      .prepare("INSERT INTO accounts (id, settings, created_at) VALUES ('acct_old', '{}', 0)")
      .run();
    old.close();
    const db = openDatabase(file, 'relaxed');
    onTestFinished(() => {
      db.close();
    });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM charges').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT id FROM accounts').all()).toEqual([{ id: 'acct_old' }]);
  });
});
