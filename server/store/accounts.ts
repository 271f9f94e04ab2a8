import type { Statement } from 'better-sqlite3';
import type { AccountSettings } from '../domain/account-settings.js';
import type { Db } from './db.js';

/** A partner account: its settings (contract §3) and its clock offset. Immutable: updates replace it. */
export interface Account {
  readonly id: string;
  readonly settings: AccountSettings;
  /** The account clock is real time plus this offset (contract §3 "clock"). */
  readonly clockOffsetMs: number;
  readonly createdAt: number;
}

interface AccountRow {
  id: string;
  settings: string;
  clock_offset_ms: number;
  created_at: number;
}

/**
 * Accounts, cached in memory and written through to SQLite: every API request
 * reads its account, and one process owns the database file (store/db.ts), so
 * the cache is never stale.
 */
export class AccountStore {
  readonly #cache = new Map<string, Account>();
  readonly #insert: Statement<[string, string, number, number]>;
  readonly #select: Statement<[string], AccountRow>;
  readonly #updateSettings: Statement<[string, string]>;
  readonly #updateClock: Statement<[number, string]>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO accounts (id, settings, clock_offset_ms, created_at) VALUES (?, ?, ?, ?)',
    );
    this.#select = db.prepare('SELECT * FROM accounts WHERE id = ?');
    this.#updateSettings = db.prepare('UPDATE accounts SET settings = ? WHERE id = ?');
    this.#updateClock = db.prepare('UPDATE accounts SET clock_offset_ms = ? WHERE id = ?');
  }

  create(id: string, settings: AccountSettings, createdAt: number): Account {
    this.#insert.run(id, JSON.stringify(settings), 0, createdAt);
    const account: Account = { id, settings, clockOffsetMs: 0, createdAt };
    this.#cache.set(id, account);
    return account;
  }

  get(id: string): Account | undefined {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const row = this.#select.get(id);
    if (!row) return undefined;
    const account: Account = {
      id: row.id,
      settings: JSON.parse(row.settings) as AccountSettings,
      clockOffsetMs: row.clock_offset_ms,
      createdAt: row.created_at,
    };
    this.#cache.set(id, account);
    return account;
  }

  updateSettings(account: Account, settings: AccountSettings): Account {
    this.#updateSettings.run(JSON.stringify(settings), account.id);
    const next: Account = { ...account, settings };
    this.#cache.set(account.id, next);
    return next;
  }

  setClockOffset(account: Account, clockOffsetMs: number): Account {
    this.#updateClock.run(clockOffsetMs, account.id);
    const next: Account = { ...account, clockOffsetMs };
    this.#cache.set(account.id, next);
    return next;
  }
}
