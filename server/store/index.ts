import type { Durability } from './db.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export { SqliteStore } from './sqlite-store.js';
export type { Engine, Store } from './store.js';

/** Where the store lives: a SQLite file (or `:memory:`), or a PostgreSQL database URL. */
export interface StoreOptions {
  /** SQLite file, `:memory:` (default) keeps nothing. */
  db?: string | undefined;
  durability?: Durability | undefined;
}

/** Opens the store the options name (creating or migrating its schema). */
export async function openStore(opts: StoreOptions): Promise<Store> {
  return new SqliteStore(opts.db ?? ':memory:', opts.durability ?? 'durable');
}
