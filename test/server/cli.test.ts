import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseFlags } from '../../server/cli/flags.js';
import { startServer } from '../../server/start.js';
import { runServer, spawnServer, stop } from './support/spawn-server.js';

const dir = mkdtempSync(join(tmpdir(), 'reference-cli-'));
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
    [['4010'], /unknown argument/],
  ])('refuses %j', (argv, message) => {
    const result = parseFlags(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
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
