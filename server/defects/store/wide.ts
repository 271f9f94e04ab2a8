import type { SqliteStore } from '../../store/sqlite-store.js';
import type { Async, Store } from '../../store/store.js';
import { WideQueries } from './sqlite-wide.js';

/**
 * The questions only defects ask the database (lookups across accounts or
 * modes, counts that leave out or add in what the rules say): a defect-only
 * extension of the store, opened over the store's own database when a
 * defective server is composed. The `Store` interface never offers them.
 */
export type Wide = Async<WideQueries>;

export async function openWide(store: Store): Promise<Wide> {
  if (store.engine === 'postgres') {
    // Loaded only for a defective server on PostgreSQL, as the store's own driver is.
    const { PostgresStore } = await import('../../store/postgres/postgres-store.js');
    const { pgWideQueries } = await import('./postgres-wide.js');
    if (!(store instanceof PostgresStore)) throw new Error('a postgres store of another kind');
    return pgWideQueries(store.database);
  }
  const queries = new WideQueries((store as SqliteStore).db);
  const wide: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(WideQueries.prototype)) {
    const method = (queries as unknown as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    wide[name] = async (...args: unknown[]) => method.apply(queries, args);
  }
  return wide as Wide;
}
