import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

/**
 * The PostgreSQL tests run when TEST_DATABASE_URL names a server they may
 * create databases on (`scripts/pg-throwaway.sh start DIR` starts a throwaway
 * one and prints its URL). Without it they are skipped, saying so; CI sets
 * TEST_DATABASE_REQUIRED=1 as well, and then a missing URL fails them instead.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const REQUIRED = process.env.TEST_DATABASE_REQUIRED === '1';

/** `describe` when PostgreSQL is there; a skipped (or, in CI, failing) block that says why when not. */
export function describePostgres(name: string, body: (url: string) => void): void {
  const url = TEST_DATABASE_URL;
  if (url !== undefined) {
    describe(name, () => body(url));
  } else if (REQUIRED) {
    describe(name, () => {
      it('needs PostgreSQL', () => {
        throw new Error('TEST_DATABASE_REQUIRED=1 but TEST_DATABASE_URL is not set');
      });
    });
  } else {
    describe.skip(`${name} (skipped: no PostgreSQL; set TEST_DATABASE_URL=postgres://…)`, () =>
      body(''));
  }
}

/** A new, empty database on the test server; `drop()` removes it (and ends its connections). */
export async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `reference_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
