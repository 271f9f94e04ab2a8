import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { redactUrl } from '../server/store/postgres/postgres-store.js';

/**
 * The PostgreSQL side of `npm run bench:reference -- --database-url URL`
 * (a shared sandbox past one machine): one and two reference instances on one database, measured in
 * the same run as SQLite. The benchmark makes a fresh database on that server
 * (`reference_bench_…`, dropped at the end) so that it measures an empty
 * store as the SQLite scenarios do; when the URL's user may not create
 * databases, it uses the URL's database as it is (the reference migrates it,
 * and the benchmark accounts stay in it).
 */

/** `--database-url URL` (or `--database-url=URL`) from the benchmark's arguments; a message for anything else. */
export function benchDatabaseUrl(argv: readonly string[]): string | undefined {
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--database-url') url = argv[++i];
    else if (arg.startsWith('--database-url=')) url = arg.slice('--database-url='.length);
    else throw new Error(`bench:reference: unknown argument (only --database-url URL is taken)`);
    if (url === undefined || !/^postgres(ql)?:\/\/\S+$/.test(url)) {
      // The URL may hold a password: never echo it.
      throw new Error('bench:reference: --database-url must be a postgres:// URL');
    }
  }
  return url;
}

export interface BenchDatabase {
  url: string;
  /** What the report says about it. */
  note: string;
  drop(): Promise<void>;
}

/** A fresh database on the server of `url`, or `url` itself when creating one is refused. */
export async function benchDatabase(url: string): Promise<BenchDatabase> {
  const name = `reference_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // 42501 insufficient_privilege: no CREATEDB; measure on the given database instead.
    if (code !== '42501') throw error;
    return { url, note: `${redactUrl(url)} (as given)`, drop: async () => undefined };
  } finally {
    await admin.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    note: `${redactUrl(fresh.toString())} (fresh, dropped at the end)`,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
