import type { Durability } from './db.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export { SqliteStore } from './sqlite-store.js';
export type { Store } from './store.js';

/** Where the store lives: a SQLite file (or `:memory:`), or a PostgreSQL database URL. */
export interface StoreOptions {
  /** SQLite file, `:memory:` (default) keeps nothing. */
  db?: string | undefined;
  durability?: Durability | undefined;
  /** `postgres://…`: PostgreSQL instead of SQLite (`db` and `durability` then do not apply). */
  databaseUrl?: string | undefined;
  /** Connections per instance to PostgreSQL (default 10). */
  databasePoolMax?: number | undefined;
  /** How long PostgreSQL is waited for when it cannot be reached at start (default 0: not at all). */
  databaseWaitMs?: number | undefined;
  /** Called when that wait is over and the database never answered. */
  onDatabaseGiveUp?: ((error: Error) => void) | undefined;
}

/** Opens the store the options name, applying its schema migrations. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  if (opts.databaseUrl !== undefined) {
    // Loaded only when asked for: a SQLite server never loads the PostgreSQL driver.
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    const { DEFAULT_POOL_LIMITS } = await import('./postgres/pg-db.js');
    return PostgresStore.open(
      opts.databaseUrl,
      {
        ...DEFAULT_POOL_LIMITS,
        ...(opts.databasePoolMax !== undefined ? { max: opts.databasePoolMax } : {}),
      },
      {
        waitMs: opts.databaseWaitMs ?? 0,
        ...(opts.onDatabaseGiveUp ? { onGiveUp: opts.onDatabaseGiveUp } : {}),
      },
    );
  }
  return new SqliteStore(opts.db ?? ':memory:', opts.durability ?? 'durable');
}
