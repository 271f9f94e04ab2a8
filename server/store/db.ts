import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

/** Thrown when the database file cannot be used; `message` is one clear line. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/**
 * `durable`: a commit is fsynced before the answer to its write is sent, so
 * neither a killed process nor an operating-system crash or power loss loses
 * an acknowledged write. `relaxed`: a commit reaches the WAL (the OS page
 * cache) before the answer, with no fsync: a killed process still loses
 * nothing, a power loss may drop the last commits. For throwaway sandboxes.
 */
export type Durability = 'durable' | 'relaxed';

/**
 * Opens (and creates or migrates) the database. A file database runs in WAL
 * mode; `synchronous = FULL` (durable) fsyncs the WAL at every commit; the
 * group commit (group-commit.ts) makes one commit per batch of concurrent
 * orders and fsyncs its WAL itself, off the event loop, before answering. `synchronous = NORMAL` (relaxed) never
 * fsyncs at commit, only at checkpoints.
 * `locking_mode = EXCLUSIVE` keeps a second server off the same file: it
 * fails at once with a clear message instead of interleaving writes.
 */
export function openDatabase(path: string, durability: Durability = 'durable'): Db {
  let db: Db | undefined;
  try {
    db = new Database(path);
    if (path !== ':memory:' && path !== '') {
      db.pragma('busy_timeout = 0');
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      db.pragma(durability === 'durable' ? 'synchronous = FULL' : 'synchronous = NORMAL');
      // Checkpoint every ~40 MB of WAL instead of every 4 MB: hot pages (the
      // tails of the order and event indexes) are copied back once per
      // checkpoint, so fewer checkpoints mean far less I/O per order.
      db.pragma('wal_autocheckpoint = 10000');
      db.pragma('journal_size_limit = 67108864');
      // Statement journals (every savepoint of the group commit opens one) and
      // temporary b-trees in memory, not in files under /var/tmp: they only
      // ever roll back a statement of a live transaction, never recover a
      // crash, and as files they cost about 15 writes per order.
      db.pragma('temp_store = MEMORY');
    }
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw new DatabaseOpenError(describe(path, error));
  }
}

function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  if (version > SCHEMA_VERSION) {
    throw new Error(`it was written by a newer reference server (schema ${version})`);
  }
  // A file of an earlier version gets the migrations it lacks, in order, in one transaction.
  db.transaction(() => {
    for (const sql of MIGRATIONS.slice(version)) db.exec(sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

function describe(path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return `database ${path} is in use by another process (is another reference server running on it?)`;
  }
  if (code === 'SQLITE_NOTADB') return `database ${path} is not a SQLite database`;
  const message = error instanceof Error ? error.message : String(error);
  return `cannot open database ${path}: ${message}`;
}
