import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { Scope } from '../domain/scopes.js';
import type { Db } from './db.js';
import type { TokenStore } from './tokens.js';

/** §2 API key. The Secret Key itself is never stored, only its SHA-256 digest. */
export interface ApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly mode: Mode;
  readonly secretHash: Buffer;
  readonly scopes: readonly Scope[];
  /** CIDR blocks or addresses (§5.9); empty: any address. */
  readonly ipAllowlist: readonly string[];
  readonly status: 'active' | 'revoked';
  readonly probationEnded: boolean;
  /** On the account clock: probation (§3) runs from here. */
  readonly createdAt: number;
}

/** An API key as both storage engines keep it (SQLite has no boolean: 0 or 1 there). */
export interface KeyRow {
  id: string;
  account_id: string;
  mode: string;
  secret_hash: Buffer;
  scopes: string;
  ip_allowlist: string;
  status: string;
  probation_ended: number | boolean;
  created_at: number;
}

export function keyFromRow(row: KeyRow): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as Mode,
    secretHash: row.secret_hash,
    scopes: row.scopes === '' ? [] : (row.scopes.split(' ') as Scope[]),
    ipAllowlist: JSON.parse(row.ip_allowlist) as string[],
    status: row.status as ApiKey['status'],
    probationEnded: row.probation_ended === 1 || row.probation_ended === true,
    createdAt: row.created_at,
  };
}

/** API keys, cached in memory and written through (one process owns the file). */
export class KeyStore {
  readonly #db: Db;
  readonly #cache = new Map<string, ApiKey>();
  readonly #insert: Statement<
    [string, string, string, Buffer, string, string, string, number, number]
  >;
  readonly #select: Statement<[string], KeyRow>;
  readonly #countActive: Statement<[string], { n: number }>;
  readonly #setSecret: Statement<[Buffer, string]>;
  readonly #setStatus: Statement<[string, string]>;
  readonly #endProbation: Statement<[string]>;
  readonly #tokens: TokenStore;

  constructor(db: Db, tokens: TokenStore) {
    this.#db = db;
    this.#tokens = tokens;
    this.#insert = db.prepare(
      `INSERT INTO api_keys (id, account_id, mode, secret_hash, scopes, ip_allowlist, status, probation_ended, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#select = db.prepare('SELECT * FROM api_keys WHERE id = ?');
    this.#countActive = db.prepare(
      "SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND status = 'active'",
    );
    this.#setSecret = db.prepare('UPDATE api_keys SET secret_hash = ? WHERE id = ?');
    this.#setStatus = db.prepare('UPDATE api_keys SET status = ? WHERE id = ?');
    this.#endProbation = db.prepare('UPDATE api_keys SET probation_ended = 1 WHERE id = ?');
  }

  create(key: ApiKey): ApiKey {
    this.#insert.run(
      key.id,
      key.accountId,
      key.mode,
      key.secretHash,
      key.scopes.join(' '),
      JSON.stringify(key.ipAllowlist),
      key.status,
      key.probationEnded ? 1 : 0,
      key.createdAt,
    );
    this.#cache.set(key.id, key);
    return key;
  }

  get(id: string): ApiKey | undefined {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const row = this.#select.get(id);
    if (!row) return undefined;
    const key = keyFromRow(row);
    this.#cache.set(id, key);
    return key;
  }

  countActive(accountId: string): number {
    return this.#countActive.get(accountId)?.n ?? 0;
  }

  /** §3 Roll: the old Secret Key and every token made with it stop working at once. */
  roll(key: ApiKey, secretHash: Buffer): ApiKey {
    return this.#replace(key, { secretHash }, () => this.#setSecret.run(secretHash, key.id));
  }

  /** §3 Revoke: permanent; all its tokens stop working. */
  revoke(key: ApiKey): ApiKey {
    return this.#replace(key, { status: 'revoked' }, () => this.#setStatus.run('revoked', key.id));
  }

  /** §3: probation can be ended early by the operator. */
  endProbation(key: ApiKey): ApiKey {
    const next: ApiKey = { ...key, probationEnded: true };
    this.#endProbation.run(key.id);
    this.#cache.set(key.id, next);
    return next;
  }

  #replace(key: ApiKey, change: Partial<ApiKey>, write: () => void): ApiKey {
    const next: ApiKey = { ...key, ...change };
    this.#db
      .transaction(() => {
        write();
        this.#tokens.dropForKey(key.id);
      })
      .immediate();
    this.#cache.set(key.id, next);
    return next;
  }
}
