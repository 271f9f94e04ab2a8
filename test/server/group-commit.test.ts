import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../server/store/db.js';
import { GroupCommit } from '../../server/store/group-commit.js';
import { emptyDir } from '../support/temp-dir.js';

const dir = emptyDir('reference-group-commit-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A durable file database with one table, and a group commit whose fsync the test holds. */
function setUp(name: string) {
  const path = join(dir, `${name}.db`);
  const db = openDatabase(path, 'durable');
  onTestFinished(() => {
    db.close();
  });
  db.exec('CREATE TABLE t (v INTEGER)');
  const syncs: Array<{ path: string; release: () => void; fail: (error: Error) => void }> = [];
  const sync = (file: string) =>
    new Promise<void>((release, fail) => syncs.push({ path: file, release, fail }));
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  return { path, db, syncs, group: new GroupCommit(db, `${path}-wal`, sync), insert };
}

/** Whether a promise has settled by the time the queued callbacks ran (no timers, no waiting). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('group commit (durable): answers wait for the WAL fsync, the event loop does not', () => {
  it('one batch, one COMMIT, one fsync of the WAL; nobody hears back before it is done', async () => {
    const { path, db, syncs, group, insert } = setUp('held');
    const first = group.run(() => insert.run(1));
    const second = group.run(() => insert.run(2));
    // The batch has committed (its rows are readable) but its fsync is held: no answer yet.
    expect(await settled(first)).toBe(false);
    expect(await settled(second)).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    expect(syncs.map((s) => s.path)).toEqual([`${path}-wal`]);
    // The commit left the connection's durability as it was (FULL for every other write).
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    syncs[0]?.release();
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  });

  it('a failed fsync refuses every write of its batch', async () => {
    const { syncs, group, insert } = setUp('failed');
    const write = group.run(() => insert.run(1));
    await settled(write);
    syncs[0]?.fail(new Error('EIO'));
    await expect(write).rejects.toThrow('EIO');
  });

  it('a piece that throws is rolled back alone; the rest of its batch commits', async () => {
    const { db, syncs, group, insert } = setUp('piece');
    const good = group.run(() => insert.run(1));
    const bad = group.run(() => {
      insert.run(2);
      throw new Error('refused');
    });
    await settled(good);
    syncs[0]?.release();
    await expect(good).resolves.toBeDefined();
    await expect(bad).rejects.toThrow('refused');
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }]);
  });
});
