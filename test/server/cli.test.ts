import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseFlags } from '../../server/cli/flags.js';
import { startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { runServer, spawnServer, stop } from './support/spawn-server.js';

const dir = emptyDir('reference-cli-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseFlags', () => {
  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      parseFlags([
        '--port',
        '0',
        '--control-token=t',
        '--db',
        'x.db',
        '--host',
        '::1',
        '--docs-url',
        'https://d.test',
        '--log',
      ]),
    ).toEqual({
      ok: true,
      options: {
        port: 0,
        controlToken: 't',
        db: 'x.db',
        host: '::1',
        docsUrl: 'https://d.test',
        logger: true,
        durability: 'durable',
        databaseWaitMs: 60_000,
        trustProxy: [],
        warnings: [
          'warning: --control-token is visible to every user of this machine in the process list; set CONTROL_TOKEN or use --control-token-file',
        ],
      },
    });
  });

  it('has defaults: port 4010, host 127.0.0.1, ./reference.db, no control API; CONTROL_TOKEN from the environment', () => {
    expect(parseFlags([])).toEqual({
      ok: true,
      options: {
        port: 4010,
        host: '127.0.0.1',
        db: './reference.db',
        controlToken: undefined,
        docsUrl: undefined,
        logger: false,
        durability: 'durable',
        databaseWaitMs: 60_000,
        trustProxy: [],
        warnings: [],
      },
    });
    const fromEnv = parseFlags([], { CONTROL_TOKEN: 'env-token' });
    expect(fromEnv.ok && 'options' in fromEnv && fromEnv.options.controlToken).toBe('env-token');
  });

  it.each([
    [['--port', '65536'], /--port/],
    [['--port', 'abc'], /--port/],
    [['--port'], /needs a value/],
    [['--port', '--db'], /needs a value/],
    [['--port', '1', '--port', '2'], /more than once/],
    [['--control-token', ''], /must not be empty/],
    [['--db='], /must not be empty/],
    [['--docs-url', 'ftp://x'], /docs-url/],
    [['--frobnicate'], /unknown argument/],
    [['--durability', 'sometimes'], /durable or relaxed/],
    [['--control-token-file', '/nonexistent/token'], /cannot be read \(ENOENT\)/],
    [['--control-token-file', 'f', '--control-token', 't'], /not both/],
    [['4010'], /unknown argument/],
    [['--database-url', 'mysql://u:pw@h/db'], /must be a postgres:\/\/ URL$/],
    [['--database-pool', '0'], /--database-pool must be an integer from 1 to 999/],
    [['--database-pool', 'ten'], /--database-pool must be an integer from 1 to 999/],
  ])('refuses %j', (argv, message) => {
    const result = parseFlags(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('the control token from a file (--control-token-file), never on the command line', () => {
  it('reads the token from the file, without its trailing newline', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'file-token-1234\n', { mode: 0o600 });
    const result = parseFlags(['--control-token-file', file], { CONTROL_TOKEN: 'env-token' });
    expect(result.ok && 'options' in result && result.options.controlToken).toBe('file-token-1234');
  });

  it.each([[''], ['\n'], ['two\nlines\n']])('refuses a file holding %j', (content) => {
    const file = join(dir, `bad-${randomUUID()}`);
    writeFileSync(file, content);
    const result = parseFlags(['--control-token-file', file]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/one non-empty line/);
  });

  it('--database-url and --database-pool (or DATABASE_URL, DATABASE_POOL_MAX) choose PostgreSQL and its pool', () => {
    const url = 'postgres://sandbox:pw@db.internal:5432/sandbox';
    const fromFlags = parseFlags(['--database-url', url, '--database-pool=4']);
    expect(fromFlags.ok && 'options' in fromFlags && fromFlags.options).toMatchObject({
      databaseUrl: url,
      databasePoolMax: 4,
    });
    const fromEnv = parseFlags([], { DATABASE_URL: url, DATABASE_POOL_MAX: '12' });
    expect(fromEnv.ok && 'options' in fromEnv && fromEnv.options).toMatchObject({
      databaseUrl: url,
      databasePoolMax: 12,
    });
    // A refused URL is never echoed: it may hold a password.
    const refused = parseFlags([], { DATABASE_URL: 'http://u:secret-pw@h/db' });
    expect(!refused.ok && refused.error).not.toContain('secret-pw');
  });

  it('a secret on the command line is accepted with a warning naming the environment variable', () => {
    const withPassword = parseFlags(['--database-url', 'postgres://u:pw-123@h/db']);
    expect(withPassword.ok && 'options' in withPassword && withPassword.options.warnings).toEqual([
      expect.stringMatching(/--database-url holds a password.*set DATABASE_URL instead$/),
    ]);
    expect(JSON.stringify(withPassword)).not.toMatch(/warning[^"]*pw-123/);
    const noPassword = parseFlags(['--database-url', 'postgres://u@h/db']);
    expect(noPassword.ok && 'options' in noPassword && noPassword.options.warnings).toEqual([]);
    const fromEnv = parseFlags([], { DATABASE_URL: 'postgres://u:pw@h/db', CONTROL_TOKEN: 'tok' });
    expect(fromEnv.ok && 'options' in fromEnv && fromEnv.options.warnings).toEqual([]);
  });

  it('--trust-proxy (or TRUST_PROXY), --database-wait (or DATABASE_WAIT_SECONDS), --max-connections-per-address', () => {
    const flags = parseFlags([
      '--trust-proxy',
      '10.0.0.5, 10.1.0.0/16,::1',
      '--database-wait=5',
      '--max-connections-per-address',
      '32',
    ]);
    expect(flags.ok && 'options' in flags && flags.options).toMatchObject({
      trustProxy: ['10.0.0.5', '10.1.0.0/16', '::1'],
      databaseWaitMs: 5_000,
      maxConnectionsPerAddress: 32,
    });
    const env = parseFlags([], { TRUST_PROXY: '192.0.2.1', DATABASE_WAIT_SECONDS: '0' });
    expect(env.ok && 'options' in env && env.options).toMatchObject({
      trustProxy: ['192.0.2.1'],
      databaseWaitMs: 0,
    });
    for (const bad of [
      ['--trust-proxy', 'balancer.internal'],
      ['--trust-proxy', '10.0.0.0/33'],
      ['--trust-proxy', ','],
      ['--database-wait', '-1'],
      ['--max-connections-per-address', '0'],
    ]) {
      expect(parseFlags(bad).ok, bad.join(' ')).toBe(false);
    }
  });

  it('--durability relaxed is passed on', () => {
    const result = parseFlags(['--durability', 'relaxed']);
    expect(result.ok && 'options' in result && result.options.durability).toBe('relaxed');
  });

  it('a server started with --control-token-file guards the control API with that token', async () => {
    const file = join(dir, 'served-token');
    const token = `ct-${randomUUID()}`;
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const server = await spawnServer([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--control-token-file',
      file,
    ]);
    onTestFinished(async () => {
      await stop(server.child, 'SIGKILL');
    });
    const wrong = await fetch(`${server.origin}/__control/capabilities`, {
      headers: { 'x-control-token': 'nope' },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${server.origin}/__control/capabilities`, {
      headers: { 'x-control-token': token },
    });
    expect(right.status).toBe(200);
  });
});

describe('npm run reference (server/main.ts)', () => {
  it('prints exactly one line, listening http://HOST:PORT, and shuts down cleanly on SIGTERM', async () => {
    const db = join(dir, 'main.db');
    const server = await spawnServer(['--port', '0', '--db', db, '--control-token', randomUUID()]);
    onTestFinished(async () => {
      await stop(server.child, 'SIGKILL');
    });
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.origin}/api/on-demand/v1/account`);
    expect(res.status).toBe(401);
    expect(await stop(server.child, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(server.output().stdout).toBe(`listening ${server.origin}\n`);
    // A clean close checkpoints the WAL into the database file.
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('bad flags: one clear line on stderr and exit code 2', async () => {
    const result = await runServer(['--port', 'eighty']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^reference: --port must be an integer/),
    ]);
  });

  it('--profile FILE: the server speaks its dialect (here: its catalog path and key prefix), never moving a path the document fixes', async () => {
    const file = join(dir, 'profile.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        dialect: {
          keyPrefix: 'acme',
          paths: { catalogProducts: '/catalog/items', account: '/me' },
        },
      }),
    );
    const server = await spawnServer(['--port', '0', '--db', ':memory:', '--profile', file]);
    onTestFinished(async () => {
      await stop(server.child, 'SIGKILL');
    });
    const moved = await fetch(`${server.origin}/api/on-demand/v1/catalog/items`);
    expect(moved.status).toBe(401);
    const reference = await fetch(`${server.origin}/api/on-demand/v1/catalog/products`);
    expect(reference.status).toBe(404);
    // The account path is the API document's: the profile's is ignored, and the server says so.
    expect((await fetch(`${server.origin}/api/on-demand/v1/account`)).status).toBe(401);
    expect((await fetch(`${server.origin}/api/on-demand/v1/me`)).status).toBe(404);
    expect(server.output().stderr).toContain(
      'reference: warning: --profile: dialect.paths.account ("/me") is ignored: the API document fixes /account',
    );
  });

  it('a bad profile: one line per problem on stderr and exit code 2', async () => {
    const file = join(dir, 'bad-profile.json');
    writeFileSync(
      file,
      JSON.stringify({ dialect: { paths: { invoice: '/invoice' }, money: { format: 'pennies' } } }),
    );
    const result = await runServer(['--port', '0', '--db', ':memory:', '--profile', file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^reference: --profile ".*bad-profile\.json": dialect\.paths\.invoice: /,
      ),
      expect.stringMatching(
        /^reference: --profile ".*bad-profile\.json": dialect\.money\.format: /,
      ),
    ]);
    const missing = await runServer(['--profile', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(
      /^reference: --profile ".*nope\.json" cannot be read \(ENOENT\)$/,
    );
  });

  it('a PostgreSQL database it cannot reach, with --database-wait 0: the warning and one clear line, the password masked, exit code 1', async () => {
    const result = await runServer([
      '--port',
      '0',
      '--database-wait',
      '0',
      '--database-url',
      'postgres://sandbox:hunter2-secret@127.0.0.1:1/sandbox',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^reference: warning: --database-url holds a password/),
      expect.stringMatching(
        /^reference: cannot start: cannot open database postgres:\/\/sandbox:\*\*\*@127\.0\.0\.1:1\/sandbox: /,
      ),
    ]);
    expect(result.stderr).not.toContain('hunter2-secret');
  });

  it('a PostgreSQL database it cannot reach: waited for (listening, /readyz 503), then exit code 1 past --database-wait', async () => {
    const server = await spawnServer([
      '--port',
      '0',
      '--database-wait',
      '2',
      '--database-url',
      'postgres://sandbox:hunter2-secret@127.0.0.1:1/sandbox',
    ]);
    onTestFinished(async () => {
      await stop(server.child, 'SIGKILL');
    });
    const exited = once(server.child, 'exit');
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { code: string }).code).toBe('api_unavailable');
    const api = await fetch(`${server.origin}/api/on-demand/v1/account`, {
      headers: { authorization: `Bearer odp_at_${'a'.repeat(43)}` },
    });
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBe('5');
    const [code] = await exited;
    expect(code).toBe(1);
    expect(server.output().stderr).toMatch(
      /reference: cannot start: cannot open database postgres:\/\/sandbox:\*\*\*@127\.0\.0\.1:1\/sandbox: /,
    );
    expect(server.output().stderr).not.toContain('hunter2-secret');
  });

  it('a port in use: one clear line and exit code 1', async () => {
    const holder = await startServer({ port: 0 });
    onTestFinished(() => holder.close());
    const { port } = new URL(holder.origin);
    const result = await runServer(['--port', port, '--db', ':memory:']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `reference: cannot start: port ${port} on 127.0.0.1 is already in use`,
    );
  });
});
