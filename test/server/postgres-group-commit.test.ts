import { expect, it, onTestFinished } from 'vitest';
import { PgDb, sql } from '../../server/store/postgres/pg-db.js';
import { PgGroupCommit } from '../../server/store/postgres/pg-group-commit.js';
import { describePostgres, freshDatabase } from './support/postgres.js';

const CREATE = sql('CREATE TABLE placed (x INTEGER PRIMARY KEY)');
const INSERT = sql('INSERT INTO placed (x) VALUES ($1)');
const TXID = sql('SELECT txid_current() AS txid');
const ALL = sql('SELECT x FROM placed ORDER BY x');

/**
 * Issue 24: order commits are batched on PostgreSQL as on SQLite
 * (store/postgres/pg-group-commit.ts): one transaction per batch, one
 * savepoint per piece, nobody answered before the COMMIT.
 */
describePostgres('the group commit on PostgreSQL', (serverUrl) => {
  async function setup() {
    const database = await freshDatabase(serverUrl);
    onTestFinished(() => database.drop());
    const db = new PgDb(database.url, {
      max: 4,
      connectionTimeoutMs: 5_000,
      statementTimeoutMs: 5_000,
    });
    onTestFinished(() => db.close());
    await db.rows(CREATE);
    return { db, commit: new PgGroupCommit(db) };
  }

  const placed = async (db: PgDb) => (await db.rows<{ x: number }>(ALL)).map((row) => row.x);

  it('pieces sent in one turn share one transaction; a piece that throws rolls back alone', async () => {
    const { db, commit } = await setup();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        commit.run(async () => {
          await db.rows(INSERT, [i]);
          if (i === 3) throw new Error('refused');
          return (await db.first<{ txid: string }>(TXID))?.txid;
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    const txids = new Set(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])));
    expect(txids.size).toBe(1);
    expect(await placed(db)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  });

  it('a database error inside a batch: the batch is rolled back whole and each piece runs again alone', async () => {
    const { db, commit } = await setup();
    const outcomes = await Promise.allSettled(
      [1, 2, 2, 3].map((x) =>
        commit.run(async () => {
          await db.rows(INSERT, [x]);
          return x;
        }),
      ),
    );
    // The two pieces inserting 2 ran again alone, side by side: whichever came second failed.
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    expect([outcomes[0]?.status, outcomes[3]?.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await placed(db)).toEqual([1, 2, 3]);
  });
});
