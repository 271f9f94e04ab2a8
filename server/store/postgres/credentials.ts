import type { AccountSettings } from '../../domain/account-settings.js';
import type { Mode } from '../../domain/modes.js';
import type { Account } from '../accounts.js';
import type { IdempotencyRecord } from '../idempotency.js';
import { type ApiKey, type KeyRow, keyFromRow } from '../keys.js';
import { readAhead, takeReadAhead } from '../request-deadline.js';
import type { Accounts, IdempotencyRecords, Keys, Tokens } from '../store.js';
import type { IssuingKey, TokenRow } from '../tokens.js';
import { type PgDb, sql } from './pg-db.js';

/**
 * Accounts, keys, tokens and idempotency records on PostgreSQL. Nothing is
 * cached: another instance may change any of them at any moment (a roll, a
 * revoke, a clock advance, a PATCH), and the next request on any instance
 * must see it.
 */

interface AccountRow {
  id: string;
  settings: string;
  clock_offset_ms: number;
  created_at: number;
}

const ACCOUNT_INSERT = sql(
  'INSERT INTO accounts (id, settings, clock_offset_ms, created_at) VALUES ($1, $2, 0, $3)',
);
const ACCOUNT_SELECT = sql('SELECT * FROM accounts WHERE id = $1');
const ACCOUNT_SETTINGS = sql('UPDATE accounts SET settings = $1 WHERE id = $2');
const ACCOUNT_CLOCK = sql('UPDATE accounts SET clock_offset_ms = $1 WHERE id = $2');

function accountFromRow(row: AccountRow): Account {
  return {
    id: row.id,
    settings: JSON.parse(row.settings) as AccountSettings,
    clockOffsetMs: row.clock_offset_ms,
    createdAt: row.created_at,
  };
}

export function pgAccounts(db: PgDb): Accounts {
  return {
    async create(id: string, settings: AccountSettings, createdAt: number): Promise<Account> {
      await db.rows(ACCOUNT_INSERT, [id, JSON.stringify(settings), createdAt]);
      return { id, settings, clockOffsetMs: 0, createdAt };
    },
    async get(id: string): Promise<Account | undefined> {
      if (!db.inTransaction) {
        const ahead = takeReadAhead<Account>(`account:${id}`);
        if (ahead) return ahead;
      }
      const row = await db.first<AccountRow>(ACCOUNT_SELECT, [id]);
      return row && accountFromRow(row);
    },
    async updateSettings(account: Account, settings: AccountSettings): Promise<Account> {
      await db.rows(ACCOUNT_SETTINGS, [JSON.stringify(settings), account.id]);
      return { ...account, settings };
    },
    async setClockOffset(account: Account, clockOffsetMs: number): Promise<Account> {
      await db.rows(ACCOUNT_CLOCK, [clockOffsetMs, account.id]);
      return { ...account, clockOffsetMs };
    },
  };
}

const KEY_INSERT = sql(
  `INSERT INTO api_keys (id, account_id, mode, secret_hash, scopes, ip_allowlist, status, probation_ended, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
);
const KEY_SELECT = sql('SELECT * FROM api_keys WHERE id = $1');
const KEY_COUNT_ACTIVE = sql(
  "SELECT count(*) AS n FROM api_keys WHERE account_id = $1 AND status = 'active'",
);
const KEY_SECRET = sql('UPDATE api_keys SET secret_hash = $1 WHERE id = $2');
const KEY_STATUS = sql('UPDATE api_keys SET status = $1 WHERE id = $2');
const KEY_END_PROBATION = sql('UPDATE api_keys SET probation_ended = TRUE WHERE id = $1');

// FOR SHARE: a roll or revoke of the key (an UPDATE of its row) waits for this insert to commit,
// then drops the new token with the others; an insert that comes second waits for the change and
// finds the key no longer matching (READ COMMITTED re-reads the locked row): nothing stored.
const TOKEN_ISSUE = sql(
  `INSERT INTO access_tokens (hash, key_id, scopes, issued_at)
   (SELECT $1, $2, $3, $4 FROM api_keys
    WHERE id = $2 AND status = 'active' AND secret_hash = $5
    FOR SHARE)
   RETURNING key_id`,
);
const TOKEN_SELECT = sql(
  'SELECT hash, key_id, scopes, issued_at FROM access_tokens WHERE hash = $1',
);
const TOKEN_DROP = sql('DELETE FROM access_tokens WHERE key_id = $1');
/**
 * A bearer request's token, key and account in one round trip (GET /account
 * made four on PostgreSQL): the key and the account are read ahead for the
 * request (store/request-deadline.ts), and handed out once by keys.get and
 * accounts.get, outside transactions only.
 */
const TOKEN_WITH_KEY_AND_ACCOUNT = sql(
  `SELECT t.hash, t.key_id, t.scopes, t.issued_at,
     k.id AS k_id, k.account_id AS k_account_id, k.mode AS k_mode, k.secret_hash AS k_secret_hash,
     k.scopes AS k_scopes, k.ip_allowlist AS k_ip_allowlist, k.status AS k_status,
     k.probation_ended AS k_probation_ended, k.created_at AS k_created_at,
     a.id AS a_id, a.settings AS a_settings, a.clock_offset_ms AS a_clock_offset_ms,
     a.created_at AS a_created_at
   FROM access_tokens t
   LEFT JOIN api_keys k ON k.id = t.key_id
   LEFT JOIN accounts a ON a.id = k.account_id
   WHERE t.hash = $1`,
);

type JoinedRow = TokenRow & { [column: `k_${string}` | `a_${string}`]: unknown };

function readAheadKeyAndAccount(row: JoinedRow): void {
  if (typeof row.k_id !== 'string') return;
  readAhead(`key:${row.k_id}`, keyFromRow(tableColumns<KeyRow>(row, 'k_')));
  if (typeof row.a_id !== 'string') return;
  readAhead(`account:${row.a_id}`, accountFromRow(tableColumns<AccountRow>(row, 'a_')));
}

/** One joined table's columns, as TOKEN_WITH_KEY_AND_ACCOUNT names them (`k_id` → `id`). */
function tableColumns<T>(row: JoinedRow, prefix: 'k_' | 'a_'): T {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(prefix)) columns[name.slice(prefix.length)] = value;
  }
  return columns as T;
}

export function pgTokens(db: PgDb): Tokens {
  return {
    async issue(hash: Buffer, key: IssuingKey, scopes: string, issuedAt: number): Promise<boolean> {
      const stored = await db.rows(TOKEN_ISSUE, [hash, key.id, scopes, issuedAt, key.secretHash]);
      return stored.length === 1;
    },
    async get(hash: Buffer): Promise<TokenRow | undefined> {
      if (db.inTransaction) return db.first<TokenRow>(TOKEN_SELECT, [hash]);
      const row = await db.first<JoinedRow>(TOKEN_WITH_KEY_AND_ACCOUNT, [hash]);
      if (!row) return undefined;
      readAheadKeyAndAccount(row);
      return { hash: row.hash, key_id: row.key_id, scopes: row.scopes, issued_at: row.issued_at };
    },
    async dropForKey(keyId: string): Promise<void> {
      await db.rows(TOKEN_DROP, [keyId]);
    },
  };
}

export function pgKeys(db: PgDb, tokens: Tokens): Keys {
  // §3 roll and revoke: the key changes and its tokens go in one transaction.
  const replace = (key: ApiKey, change: Partial<ApiKey>, write: () => Promise<unknown>) =>
    db.transaction(async () => {
      await write();
      await tokens.dropForKey(key.id);
      return { ...key, ...change };
    });
  return {
    async create(key: ApiKey): Promise<ApiKey> {
      await db.rows(KEY_INSERT, [
        key.id,
        key.accountId,
        key.mode,
        key.secretHash,
        key.scopes.join(' '),
        JSON.stringify(key.ipAllowlist),
        key.status,
        key.probationEnded,
        key.createdAt,
      ]);
      return key;
    },
    async get(id: string): Promise<ApiKey | undefined> {
      if (!db.inTransaction) {
        const ahead = takeReadAhead<ApiKey>(`key:${id}`);
        if (ahead) return ahead;
      }
      const row = await db.first<KeyRow>(KEY_SELECT, [id]);
      return row && keyFromRow(row);
    },
    async countActive(accountId: string): Promise<number> {
      return (await db.first<{ n: number }>(KEY_COUNT_ACTIVE, [accountId]))?.n ?? 0;
    },
    roll: (key: ApiKey, secretHash: Buffer) =>
      replace(key, { secretHash }, () => db.rows(KEY_SECRET, [secretHash, key.id])),
    revoke: (key: ApiKey) =>
      replace(key, { status: 'revoked' }, () => db.rows(KEY_STATUS, ['revoked', key.id])),
    async endProbation(key: ApiKey): Promise<ApiKey> {
      await db.rows(KEY_END_PROBATION, [key.id]);
      return { ...key, probationEnded: true };
    },
  };
}

const RECORD_SELECT = sql(
  `SELECT fingerprint, order_id, created_at FROM idempotency_records
   WHERE account_id = $1 AND mode = $2 AND idempotency_key = $3`,
);
const RECORD_INSERT = sql(
  `INSERT INTO idempotency_records (account_id, mode, idempotency_key, fingerprint, order_id, created_at)
   VALUES ($1, $2, $3, $4, $5, $6)`,
);
const RECORD_DELETE = sql(
  'DELETE FROM idempotency_records WHERE account_id = $1 AND mode = $2 AND idempotency_key = $3',
);

export function pgIdempotency(db: PgDb): IdempotencyRecords {
  return {
    get: (accountId: string, mode: Mode, key: string) =>
      db.first<IdempotencyRecord>(RECORD_SELECT, [accountId, mode, key]),
    async insert(
      accountId: string,
      mode: Mode,
      key: string,
      fingerprint: Buffer,
      orderId: string,
      at: number,
    ): Promise<void> {
      await db.rows(RECORD_INSERT, [accountId, mode, key, fingerprint, orderId, at]);
    },
    async delete(accountId: string, mode: Mode, key: string): Promise<void> {
      await db.rows(RECORD_DELETE, [accountId, mode, key]);
    },
  };
}
