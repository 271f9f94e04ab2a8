import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/** A stored access token: only its SHA-256 digest is kept, so a stolen store holds no token. */
export interface TokenRow {
  hash: Buffer;
  key_id: string;
  /** Space-separated granted scopes (§5.7). */
  scopes: string;
  /** On the account clock: token age (§5.2) is measured from here. */
  issued_at: number;
}

/** The key a token is issued for, as its secret was checked. */
export interface IssuingKey {
  id: string;
  secretHash: Buffer;
}

/** Tokens looked up recently, by digest; enough for every live token of a busy sandbox. */
const CACHE_LIMIT = 10_000;

/**
 * Access tokens, by digest. Every API request looks its token up, so recent
 * ones are also kept in memory (by digest, never in clear), written through;
 * dropping a key's tokens (roll, revoke) drops them from both.
 */
export class TokenStore {
  readonly #cache = new Map<string, TokenRow>();
  readonly #cachedByKey = new Map<string, Set<string>>();
  readonly #issue: Statement<[Buffer, string, string, number, string, Buffer]>;
  readonly #select: Statement<[Buffer], TokenRow>;
  readonly #deleteForKey: Statement<[string]>;

  constructor(db: Db) {
    this.#issue = db.prepare(
      `INSERT INTO access_tokens (hash, key_id, scopes, issued_at)
       SELECT ?, ?, ?, ? WHERE EXISTS
         (SELECT 1 FROM api_keys WHERE id = ? AND status = 'active' AND secret_hash = ?)`,
    );
    this.#select = db.prepare(
      'SELECT hash, key_id, scopes, issued_at FROM access_tokens WHERE hash = ?',
    );
    this.#deleteForKey = db.prepare('DELETE FROM access_tokens WHERE key_id = ?');
  }

  /**
   * Stores a token issued for `key` as its secret was checked, only if the key
   * is still active with that secret, in one statement: a token request that
   * raced a roll or a revoke (§3: "every token made with it stop working at
   * once") either lands before the change, and is dropped with the key's
   * tokens, or finds the key changed and stores nothing. False: nothing stored.
   */
  issue(hash: Buffer, key: IssuingKey, scopes: string, issuedAt: number): boolean {
    const stored = this.#issue.run(hash, key.id, scopes, issuedAt, key.id, key.secretHash);
    if (stored.changes === 0) return false;
    this.#remember({ hash, key_id: key.id, scopes, issued_at: issuedAt });
    return true;
  }

  get(hash: Buffer): TokenRow | undefined {
    const cached = this.#cache.get(hash.toString('base64'));
    if (cached) return cached;
    const row = this.#select.get(hash);
    if (row) this.#remember(row);
    return row;
  }

  /** §3: rolling or revoking a key stops every token made with it (call in the key's transaction). */
  dropForKey(keyId: string): void {
    this.#deleteForKey.run(keyId);
    for (const id of this.#cachedByKey.get(keyId) ?? []) this.#cache.delete(id);
    this.#cachedByKey.delete(keyId);
  }

  #remember(row: TokenRow): void {
    if (this.#cache.size >= CACHE_LIMIT) {
      const oldest = this.#cache.entries().next().value;
      if (oldest) {
        this.#cache.delete(oldest[0]);
        this.#cachedByKey.get(oldest[1].key_id)?.delete(oldest[0]);
      }
    }
    const id = row.hash.toString('base64');
    this.#cache.set(id, row);
    let ids = this.#cachedByKey.get(row.key_id);
    if (!ids) {
      ids = new Set();
      this.#cachedByKey.set(row.key_id, ids);
    }
    ids.add(id);
  }
}
