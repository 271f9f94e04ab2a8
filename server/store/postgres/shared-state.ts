import { IDEMPOTENCY_RETENTION_MS, RATE_WINDOW_MS } from '../../config/api.js';
import type { Fault } from '../../faults/registry.js';
import type { Faults, RateLimits } from '../store.js';
import { type PgDb, sql } from './pg-db.js';

/**
 * What one SQLite process keeps in memory and several instances must share:
 * §8 rate-limit windows and contract §3 faults, each used with one atomic
 * statement outside the request's transaction (a refused or failed request
 * still counts; a fault is used up even when it rolls the work back).
 */

// Counts the request unless the window is full; no row back means refused.
const RATE_TAKE = sql(
  `INSERT INTO rate_windows (bucket, class, window_start, count, touched_at) VALUES ($1, $2, $3, 1, $5)
   ON CONFLICT (bucket, class, window_start) DO UPDATE
     SET count = rate_windows.count + 1, touched_at = EXCLUDED.touched_at
     WHERE rate_windows.count < $4
   RETURNING count`,
);
const RATE_SWEEP = sql('DELETE FROM rate_windows WHERE touched_at < $1');

export function pgRateLimits(db: PgDb): RateLimits {
  return {
    async take(keyId, rateClass, limit, now) {
      // Contract §2: fixed windows aligned to whole minutes of the account clock (limits/rate-limiter.ts).
      const start = now - (now % RATE_WINDOW_MS);
      const resetSeconds = Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000));
      if (limit <= 0) return { allowed: false, limit, remaining: 0, resetSeconds };
      const rows = await db.alone<{ count: number }>(RATE_TAKE, [
        keyId,
        rateClass,
        start,
        limit,
        Date.now(),
      ]);
      const count = rows[0]?.count;
      if (count === undefined) return { allowed: false, limit, remaining: 0, resetSeconds };
      return { allowed: true, limit, remaining: Math.max(0, limit - count), resetSeconds };
    },
    async sweep(realNow) {
      if (db.held) return;
      await db.alone(RATE_SWEEP, [realNow - 2 * RATE_WINDOW_MS]);
    },
  };
}

const FAULT_INSERT = sql(
  'INSERT INTO faults (id, account_id, method, path, at, remaining) VALUES ($1, $2, $3, $4, $5, $6)',
);
const FAULT_TAKE = sql(
  `UPDATE faults SET remaining = remaining - 1 WHERE seq = (
     SELECT seq FROM faults
     WHERE account_id = $1 AND method = $2 AND path = $3 AND at = $4 AND remaining > 0
     ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
   RETURNING seq`,
);
const FAULT_PURGE = sql('DELETE FROM faults WHERE remaining <= 0');

export function pgFaults(db: PgDb): Faults {
  return {
    async add(accountId: string, fault: Fault) {
      await db.alone(FAULT_INSERT, [
        fault.id,
        accountId,
        fault.method,
        fault.path,
        fault.when,
        fault.remaining,
      ]);
    },
    async take(accountId, method, path, when) {
      return (await db.alone(FAULT_TAKE, [accountId, method, path, when])).length > 0;
    },
  };
}

// As store/housekeeping.ts: records past their 24 hours on each account's clock, revoked keys' tokens.
const PURGE_RECORDS = sql(
  `DELETE FROM idempotency_records r USING accounts a
   WHERE a.id = r.account_id AND r.created_at < $1 + a.clock_offset_ms RETURNING 1`,
);
const PURGE_TOKENS = sql(
  "DELETE FROM access_tokens WHERE key_id IN (SELECT id FROM api_keys WHERE status = 'revoked') RETURNING 1",
);

export async function pgHousekeeping(
  db: PgDb,
  realNow: number,
): Promise<{ records: number; tokens: number }> {
  // Waiting for the database at start: nothing to sweep yet (the next tick does it).
  if (db.held) return { records: 0, tokens: 0 };
  const records = await db.alone(PURGE_RECORDS, [realNow - IDEMPOTENCY_RETENTION_MS]);
  const tokens = await db.alone(PURGE_TOKENS);
  await db.alone(FAULT_PURGE);
  return { records: records.length, tokens: tokens.length };
}
