import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { PgDb, sql } from '../../server/store/postgres/pg-db.js';
import { StoreUnavailableError } from '../../server/store/store.js';
import { describePostgres } from './support/postgres.js';

/**
 * Operable: the pool is bounded, and a request that cannot get an
 * answer from the database in time is refused (StoreUnavailableError: 503
 * api_unavailable), never left waiting for ever.
 */
describePostgres('the PostgreSQL connection pool', (serverUrl) => {
  it('holds at most its limit; a query that waits past the connection timeout is refused', async () => {
    const db = new PgDb(serverUrl, { max: 1, connectionTimeoutMs: 200, statementTimeoutMs: 5_000 });
    onTestFinished(() => db.close());
    const held = await db.pool.connect();
    let released = false;
    onTestFinished(() => {
      if (!released) held.release();
    });
    expect(db.pool.totalCount).toBe(1);
    await expect(db.rows(sql('SELECT 1 AS one'))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(db.pool.totalCount).toBe(1);
    held.release();
    released = true;
    expect(await db.rows(sql('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
  });

  it('a statement past its time limit is refused, and the pool serves the next one', async () => {
    const db = new PgDb(serverUrl, { max: 1, connectionTimeoutMs: 5_000, statementTimeoutMs: 200 });
    onTestFinished(() => db.close());
    await expect(db.rows(sql('SELECT pg_sleep(5)'))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await db.rows(sql('SELECT 2 AS two'))).toEqual([{ two: 2 }]);
  });

  it('a database that stops answering without closing the connection: refused once the client gives up', async () => {
    // A relay that can freeze: bytes stop flowing both ways, the sockets stay open (a partition).
    let frozen = false;
    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const database = new URL(serverUrl);
      const upstream = connect(Number(database.port || 5432), database.hostname);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        sockets.add(from);
        from.on('data', (chunk: Buffer) => {
          if (!frozen) to.write(chunk);
        });
        from.on('error', () => undefined);
        from.on('close', () => to.destroy());
      }
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    onTestFinished(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    });
    const url = new URL(serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String((relay.address() as AddressInfo).port);
    const db = new PgDb(url.toString(), {
      max: 1,
      connectionTimeoutMs: 5_000,
      statementTimeoutMs: 200,
    });
    onTestFinished(() => db.close());
    expect(await db.rows(sql('SELECT 3 AS three'))).toEqual([{ three: 3 }]);
    frozen = true;
    await expect(db.rows(sql('SELECT 4 AS four'))).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
