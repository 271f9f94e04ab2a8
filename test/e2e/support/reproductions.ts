import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import type { RuleResult } from '../../../lib/reports/report-model.js';
import type { DefectName } from '../../../server/defects/catalogue.js';
import { type RunningServer, startServer } from '../../../server/start.js';
import { emptyDir } from '../../support/temp-dir.js';

/** What a command printed (stdout and stderr together) and how it ended. */
export interface Ran {
  code: number | null;
  out: string;
}

/** A command as the server's developers run it: a directory, only PATH (node on it) and `env`. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The test counts `node --test` prints (spec reporter: "ℹ pass 3"; TAP: "# pass 3"). */
export function counts(out: string): { pass: number; fail: number; skipped: number } {
  const read = (name: string) =>
    Number(new RegExp(`^[ℹ#] ${name} (\\d+)`, 'm').exec(out)?.[1] ?? 0);
  return { pass: read('pass'), fail: read('fail'), skipped: read('skipped') };
}

/** A reference server with a control API (and these defects), closed after the file; `db` a file to look into. */
export async function controlServer(
  controlToken: string,
  defects: DefectName[] = [],
  options: { db?: string; profile?: unknown } = {},
): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    controlToken,
    db: options.db ?? ':memory:',
    ...(defects.length ? { defects } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
  });
  // Closed after the file, or before by a test that looks into its database (closed once).
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= server.close();
    return closing;
  };
  afterAll(close);
  return { ...server, close };
}

/** A result's `repro/<RULE>.mjs`, copied alone into an empty folder: no suite, no report beside it. */
export function alone(reportDir: string, result: RuleResult): { dir: string; file: string } {
  const dir = emptyDir('repro-alone-');
  const file = `${result.rule_id}.mjs`;
  copyFileSync(join(reportDir, result.reproduce?.file ?? `repro/${file}`), join(dir, file));
  return { dir, file };
}

/** Runs a result's curl form (report.json's `reproduce.curl`) with sh, from an empty folder. */
export function runCurlForm(result: RuleResult, env: Record<string, string>): Promise<Ran> {
  const dir = emptyDir('repro-curl-');
  writeFileSync(join(dir, 'reproduce.sh'), `${(result.reproduce?.curl ?? []).join('\n')}\n`);
  return run('sh', ['reproduce.sh'], dir, env);
}

/**
 * What reproductions left on a reference whose database is the file `db`
 * (read once the server is closed: it holds the file alone): keys still
 * active, webhook endpoints not deleted, orders neither cancelled nor past
 * what the protocol lets a client cancel (asked of a server started again on
 * the file: a cancel with a key made for the question must be refused).
 * Empty: nothing left but accounts with nothing open in them, which the
 * control protocol offers no way to close.
 */
export async function leftOver(db: string, controlToken: string): Promise<string[]> {
  const sql = new Database(db, { readonly: true, fileMustExist: true });
  const left: string[] = [];
  let orders: { id: string; account_id: string; mode: string }[];
  try {
    for (const key of sql.prepare("SELECT id FROM api_keys WHERE status = 'active'").all() as {
      id: string;
    }[])
      left.push(`key ${key.id} active`);
    for (const hook of sql
      .prepare('SELECT id FROM webhook_endpoints WHERE deleted_at IS NULL')
      .all() as { id: string }[])
      left.push(`webhook endpoint ${hook.id}`);
    orders = sql
      .prepare("SELECT id, account_id, mode FROM orders WHERE status != 'cancelled'")
      .all() as typeof orders;
  } finally {
    sql.close();
  }
  if (orders.length === 0) return left;
  const server = await startServer({ port: 0, controlToken, db });
  try {
    const control = async (path: string, body?: unknown) => {
      const res = await fetch(`${server.origin}/__control${path}`, {
        method: 'POST',
        headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (res.status === 204 ? {} : await res.json()) as Record<string, string>;
    };
    for (const order of orders) {
      // A key of the order's own account and mode, made to ask, revoked after.
      const key = await control(`/accounts/${encodeURIComponent(order.account_id)}/keys`, {
        mode: order.mode,
      });
      try {
        const basic = Buffer.from(`${key.access_key_id}:${key.secret_key}`).toString('base64');
        const token = (await (
          await fetch(`${server.origin}/api/on-demand/v1/oauth/token`, {
            method: 'POST',
            headers: {
              authorization: `Basic ${basic}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'grant_type=client_credentials',
          })
        ).json()) as { access_token?: string };
        const cancel = await fetch(
          `${server.origin}/api/on-demand/v1/orders/${encodeURIComponent(order.id)}/cancel`,
          { method: 'POST', headers: { authorization: `Bearer ${token.access_token}` } },
        );
        if (cancel.status !== 409)
          left.push(`order ${order.id} (a cancel now: HTTP ${cancel.status})`);
      } finally {
        await control(`/keys/${encodeURIComponent(key.access_key_id ?? '')}/revoke`);
      }
    }
  } finally {
    await server.close();
  }
  return left;
}
