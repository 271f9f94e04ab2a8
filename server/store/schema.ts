/**
 * The database schema. Sequence columns are rowids (no AUTOINCREMENT: rows of
 * those tables are never deleted, so rowids only grow, and AUTOINCREMENT would
 * cost one more page write per insert). Times are integer milliseconds on the owning account's
 * clock; money is integer cents; secrets are SHA-256 digests (never clear text).
 * `user_version` records the schema version so that a later change can migrate.
 */
export const SCHEMA_VERSION = 2;

export const SCHEMA_V1 = `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  settings TEXT NOT NULL,
  clock_offset_ms INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode TEXT NOT NULL,
  secret_hash BLOB NOT NULL,
  scopes TEXT NOT NULL,
  ip_allowlist TEXT NOT NULL,
  status TEXT NOT NULL,
  probation_ended INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX api_keys_by_account ON api_keys(account_id, status);

CREATE TABLE access_tokens (
  hash BLOB PRIMARY KEY,
  key_id TEXT NOT NULL,
  scopes TEXT NOT NULL,
  issued_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX access_tokens_by_key ON access_tokens(key_id);

CREATE TABLE orders (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  key_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  status TEXT NOT NULL,
  items TEXT NOT NULL,
  total INTEGER NOT NULL,
  shipping_address TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL,
  cancellable_until INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX orders_by_external_id ON orders(account_id, mode, external_id);
CREATE INDEX orders_by_list ON orders(account_id, mode, seq);

-- §4 rule 5: orders per UTC day of the account clock, per mode; kept as a
-- counter so that checking the limit costs the same on the 10,000th order.
CREATE TABLE daily_order_counts (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  day TEXT NOT NULL,
  orders INTEGER NOT NULL,
  PRIMARY KEY (account_id, mode, day)
) WITHOUT ROWID;

-- §3 probation: orders and their total placed by a live key in its first
-- 24 hours, counted as they are placed (cancelled ones stay counted).
CREATE TABLE probation_usage (
  key_id TEXT PRIMARY KEY,
  orders INTEGER NOT NULL,
  total INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE idempotency_records (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint BLOB NOT NULL,
  order_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, mode, idempotency_key)
) WITHOUT ROWID;

CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  object TEXT NOT NULL
);
CREATE INDEX events_by_list ON events(account_id, mode, seq);

CREATE TABLE quotes (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE webhook_endpoints (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX webhook_endpoints_by_list ON webhook_endpoints(account_id, mode, deleted_at, seq);

CREATE TABLE shipments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  order_id TEXT NOT NULL,
  carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL,
  shipped_at INTEGER NOT NULL
);
CREATE INDEX shipments_by_order ON shipments(order_id, seq);

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL UNIQUE,
  total INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
`;

/**
 * Version 2: card charges (§7: "nothing charged" after 402, 500 and 503), one
 * row per charge, written in the transaction that stores the order charged for.
 */
const SCHEMA_V2 = `
CREATE TABLE charges (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  order_id TEXT,
  external_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX charges_by_account ON charges(account_id, seq);
`;

/** The migrations in order: the one at index i brings a database to version i + 1. */
export const MIGRATIONS: readonly string[] = [SCHEMA_V1, SCHEMA_V2];
