import type pg from 'pg';

/**
 * PostgreSQL migrations, applied in order on start (store/postgres/migrate.ts):
 * `schema_migrations` records the applied versions. Version 1 is the SQLite
 * schema (store/schema.ts) in PostgreSQL's types, plus what one process kept in
 * memory on SQLite and several instances must share: rate-limit windows and
 * faults. Times are integer milliseconds on the owning account's clock; money
 * is integer cents; secrets are SHA-256 digests.
 */
const PG_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  settings TEXT NOT NULL,
  clock_offset_ms BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode TEXT NOT NULL,
  secret_hash BYTEA NOT NULL,
  scopes TEXT NOT NULL,
  ip_allowlist TEXT NOT NULL,
  status TEXT NOT NULL,
  probation_ended BOOLEAN NOT NULL DEFAULT FALSE,
  created_at BIGINT NOT NULL
);
CREATE INDEX api_keys_by_account ON api_keys(account_id, status);

CREATE TABLE access_tokens (
  hash BYTEA PRIMARY KEY,
  key_id TEXT NOT NULL,
  scopes TEXT NOT NULL,
  issued_at BIGINT NOT NULL
);
CREATE INDEX access_tokens_by_key ON access_tokens(key_id);

CREATE TABLE orders (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  key_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  status TEXT NOT NULL,
  items TEXT NOT NULL,
  total BIGINT NOT NULL,
  shipping_address TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  day TEXT NOT NULL,
  cancellable_until BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX orders_by_external_id ON orders(account_id, mode, external_id);
CREATE INDEX orders_by_list ON orders(account_id, mode, seq);

CREATE TABLE daily_order_counts (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  day TEXT NOT NULL,
  orders BIGINT NOT NULL,
  PRIMARY KEY (account_id, mode, day)
);

CREATE TABLE probation_usage (
  key_id TEXT PRIMARY KEY,
  orders BIGINT NOT NULL,
  total BIGINT NOT NULL
);

CREATE TABLE idempotency_records (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint BYTEA NOT NULL,
  order_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, mode, idempotency_key)
);

CREATE TABLE events (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  object TEXT NOT NULL
);
CREATE INDEX events_by_list ON events(account_id, mode, seq);

CREATE TABLE quotes (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE webhook_endpoints (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  deleted_at BIGINT
);
CREATE INDEX webhook_endpoints_by_list ON webhook_endpoints(account_id, mode, deleted_at, seq);

CREATE TABLE shipments (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  order_id TEXT NOT NULL,
  carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL,
  shipped_at BIGINT NOT NULL
);
CREATE INDEX shipments_by_order ON shipments(order_id, seq);

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL UNIQUE,
  total BIGINT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- §8 fixed windows, shared by every instance: one row per key (or client
-- address), class and window start; a request counts with one atomic upsert.
CREATE TABLE rate_windows (
  bucket TEXT NOT NULL,
  class TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count BIGINT NOT NULL,
  touched_at BIGINT NOT NULL,
  PRIMARY KEY (bucket, class, window_start)
);

-- Contract §3 faults, shared by every instance: each use is one atomic decrement.
CREATE TABLE faults (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  at TEXT NOT NULL,
  remaining INTEGER NOT NULL
);
CREATE INDEX faults_by_match ON faults(account_id, method, path, at) WHERE remaining > 0;
`,
  },
  {
    // Card charges (§7: "nothing charged"), as store/schema.ts version 2.
    version: 2,
    sql: `
CREATE TABLE charges (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  order_id TEXT,
  external_id TEXT NOT NULL,
  amount BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX charges_by_account ON charges(account_id, seq);
`,
  },
];

/** Any fixed number: the advisory lock that keeps two starting instances from migrating at once. */
const MIGRATION_LOCK = 7_250_315;

/** Applies the migrations not yet applied, one instance at a time; refuses a newer schema. */
export async function migrate(client: pg.PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    const latest = PG_MIGRATIONS.at(-1)?.version ?? 0;
    if (current > latest) {
      throw new Error(`it was written by a newer reference server (schema ${current})`);
    }
    for (const migration of PG_MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [
          migration.version,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
