import type { Mode } from '../../domain/modes.js';
import type { IdempotencyRecord } from '../../store/idempotency.js';
import { type PgDb, sql } from '../../store/postgres/pg-db.js';
import type { Async } from '../../store/store.js';
import type { TokenRow } from '../../store/tokens.js';
import type { WideQueries } from './sqlite-wide.js';

/** sqlite-wide.ts on PostgreSQL: the wrong questions only test-only defects ask. */

const EXTERNAL_ID_ACCOUNT = sql(
  'SELECT account_id FROM orders WHERE external_id = $1 AND mode = $2 LIMIT 1',
);
const OTHER_ACTIVE_KEYS = sql(
  "SELECT id FROM api_keys WHERE account_id = $1 AND status = 'active' AND id <> $2",
);
const ORDER_ACCOUNT = sql('SELECT account_id FROM orders WHERE id = $1 AND mode = $2');
// NULL parameters widen the lookup to every account or mode.
const RECORD_ACROSS = sql(
  `SELECT fingerprint, order_id, created_at FROM idempotency_records
   WHERE idempotency_key = $1 AND ($2::text IS NULL OR account_id = $2) AND ($3::text IS NULL OR mode = $3)
   LIMIT 1`,
);
const CANCELLED_ON_DAY = sql(
  "SELECT count(*) AS n FROM orders WHERE account_id = $1 AND mode = $2 AND day = $3 AND status = 'cancelled'",
);
const ORDERS_ON_DAY_ALL_MODES = sql(
  'SELECT coalesce(sum(orders), 0)::bigint AS n FROM daily_order_counts WHERE account_id = $1 AND day = $2',
);
const KEY_USAGE = sql(
  "SELECT count(*) AS count, coalesce(sum(total), 0)::bigint AS total FROM orders WHERE key_id = $1 AND status <> 'cancelled'",
);
const ACCOUNT_LIVE_USAGE = sql(
  "SELECT count(*) AS count, coalesce(sum(total), 0)::bigint AS total FROM orders WHERE account_id = $1 AND mode = 'live'",
);
const ENDPOINT_COUNT = sql(
  `SELECT count(*) AS n FROM webhook_endpoints
   WHERE account_id = $1 AND ($2::text IS NULL OR mode = $2) AND ($3 OR deleted_at IS NULL)`,
);
const FIRST_TOKEN = sql('SELECT min(issued_at) AS first FROM access_tokens WHERE key_id = $1');
const TOKEN_INSERT = sql(
  'INSERT INTO access_tokens (hash, key_id, scopes, issued_at) VALUES ($1, $2, $3, $4)',
);
const TOKENS_OF_KEY = sql(
  'SELECT hash, key_id, scopes, issued_at FROM access_tokens WHERE key_id = $1',
);

export function pgWideQueries(db: PgDb): Async<WideQueries> {
  return {
    async externalIdAccount(externalId: string, mode: Mode) {
      return (await db.first<{ account_id: string }>(EXTERNAL_ID_ACCOUNT, [externalId, mode]))
        ?.account_id;
    },
    async otherActiveKeyIds(accountId: string, exceptKeyId: string) {
      return (await db.rows<{ id: string }>(OTHER_ACTIVE_KEYS, [accountId, exceptKeyId])).map(
        (row) => row.id,
      );
    },
    async orderAccount(id: string, mode: Mode) {
      return (await db.first<{ account_id: string }>(ORDER_ACCOUNT, [id, mode]))?.account_id;
    },
    idempotencyRecord: (key: string, scope: { accountId?: string; mode?: Mode }) =>
      db.first<IdempotencyRecord>(RECORD_ACROSS, [
        key,
        scope.accountId ?? null,
        scope.mode ?? null,
      ]),
    async cancelledOnDay(accountId: string, mode: Mode, day: string) {
      return (await db.first<{ n: number }>(CANCELLED_ON_DAY, [accountId, mode, day]))?.n ?? 0;
    },
    async ordersOnDayAllModes(accountId: string, day: string) {
      return (await db.first<{ n: number }>(ORDERS_ON_DAY_ALL_MODES, [accountId, day]))?.n ?? 0;
    },
    async keyUsageWithoutCancelled(keyId: string) {
      return (
        (await db.first<{ count: number; total: number }>(KEY_USAGE, [keyId])) ?? {
          count: 0,
          total: 0,
        }
      );
    },
    async accountLiveUsage(accountId: string) {
      return (
        (await db.first<{ count: number; total: number }>(ACCOUNT_LIVE_USAGE, [accountId])) ?? {
          count: 0,
          total: 0,
        }
      );
    },
    async endpointCount(accountId: string, scope: { mode?: Mode; withDeleted: boolean }) {
      return (
        (
          await db.first<{ n: number }>(ENDPOINT_COUNT, [
            accountId,
            scope.mode ?? null,
            scope.withDeleted,
          ])
        )?.n ?? 0
      );
    },
    async firstTokenIssuedAt(keyId: string) {
      return (await db.first<{ first: number | null }>(FIRST_TOKEN, [keyId]))?.first ?? undefined;
    },
    tokensOfKey: (keyId: string) => db.rows<TokenRow>(TOKENS_OF_KEY, [keyId]),
    async insertToken(row: TokenRow) {
      await db.rows(TOKEN_INSERT, [row.hash, row.key_id, row.scopes, row.issued_at]);
    },
  };
}
