import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/reports/report-model.js';
import { BIN, type CliResult, runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/** `client -- <command>` as a partner runs it: the CLI, the bundled reference, the command. */
const SAMPLE = fileURLToPath(
  new URL('../../examples/partner-client/sync-orders.mjs', import.meta.url),
);
const clients = (name: string) => fileURLToPath(new URL(`./clients/${name}`, import.meta.url));

const readReport = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('client -- the sample client', () => {
  let run: CliResult;
  const dir = join(emptyDir(), 'report');

  beforeAll(async () => {
    run = await runCli(['client', '--report-dir', dir, '--', process.execPath, SAMPLE]);
  });

  test('exits 0 with every client rule honoured or not exercised, for a stated reason', () => {
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(0);
    const report = readReport(dir);
    expect(report.client?.exit_code).toBe(0);
    expect(report.exit_code).toBe(0);
    for (const result of report.results) {
      expect(['honoured', 'not_exercised']).toContain(result.client?.outcome);
      expect(result.reason).toBeTruthy();
    }
    expect(run.stdout).toMatch(/Client rules: \d+ honoured, 0 broken, \d+ not exercised \(of 23\)/);
    expect(run.stdout).toContain(`Report: ${dir}/report.html`);
  });

  test('writes the client report in the suite’s formats, the exchanges in order', () => {
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'exchanges.har'])
      expect(existsSync(join(dir, file)), file).toBe(true);
    const report = readReport(dir);
    const ids = report.client?.exchanges.map((ex) => ex.id) ?? [];
    expect(ids.length).toBeGreaterThan(30);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8'));
    expect(har.log.entries).toHaveLength(ids.length);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(23);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^# Client grading: /);
  });
});

describe('client -- what the user gets wrong, and what goes wrong', () => {
  test('bad options and a missing command: one line each, exit 2, no report', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['client', '--situations', '500-later', '--', 'node', '-e', '0'],
        /--situations: "500-later" is not a situation/,
      ],
      [['client', '--bogus', '--', 'node'], /--bogus: unknown option of client/],
      [['client', '--report-dir'], /--report-dir: needs a value/],
      [['client', '--report-dir', 'x'], /client: no command to grade: give it after --/],
      [
        ['client', '--retry-after', '0', '--', 'node'],
        /--retry-after: must be an integer from 1 to 60/,
      ],
      [
        ['client', '--control-url', 'http://127.0.0.1:1/__control', '--', 'node'],
        /--control-url: needs --target/,
      ],
    ];
    for (const [args, said] of cases) {
      const cwd = emptyDir();
      const run = await runCli(args, {}, cwd);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr).toMatch(said);
      expect(existsSync(join(cwd, 'reports'))).toBe(false);
    }
  });

  test('a command that cannot start: one line, exit 2', async () => {
    const dir = join(emptyDir(), 'report');
    const run = await runCli(['client', '--report-dir', dir, '--', 'no-such-client-command-xyz']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error: the command could not start: not found \(ENOENT\)/);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  test('the command’s own failure is reported, not the exit code: a client that breaks nothing exits 0', async () => {
    const dir = join(emptyDir(), 'report');
    const run = await runCli([
      'client',
      '--report-dir',
      dir,
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    expect(run.code).toBe(0);
    const report = readReport(dir);
    expect(report.client?.exit_code).toBe(3);
    expect(report.results.every((r) => r.client?.outcome === 'not_exercised')).toBe(true);
    expect(run.stdout).toContain('The command exited 3; 0 requests to the sandbox.');
  });

  test('the Secret Key reaches no report file and no output, wherever the client puts it', async () => {
    const dir = join(emptyDir(), 'report');
    const secretFile = join(emptyDir(), 'secret');
    const run = await runCli(
      [
        'client',
        '--situations',
        'none',
        '--report-dir',
        dir,
        '--',
        process.execPath,
        clients('leaks-its-secret.mjs'),
      ],
      { SECRET_FILE: secretFile },
    );
    const secret = readFileSync(secretFile, 'utf8');
    expect(secret).toMatch(/^odp_test_sk_/);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('my secret is [REDACTED');
    for (const text of [run.stdout, run.stderr]) expect(text).not.toContain(secret);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).not.toContain(secret);
      expect(text, file).not.toContain(encodeURIComponent(secret));
    }
    const broken = readReport(dir).results.filter((r) => r.client?.outcome === 'broken');
    expect(broken.map((r) => r.rule_id)).toEqual(['CLIENT-05', 'CLIENT-06', 'CLIENT-07']);
  });

  test('Ctrl-C stops the command and still writes the report (exit 2)', async () => {
    const dir = join(emptyDir(), 'report');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'client',
        '--situations',
        'none',
        '--report-dir',
        dir,
        '--',
        process.execPath,
        clients('waits-for-ctrl-c.mjs'),
      ],
      {
        cwd: emptyDir(),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The client said it is running: the user presses Ctrl-C.
        if (stdout.includes('ready\n') && !child.killed) child.kill('SIGINT');
      });
      child.on('close', resolve);
    });
    expect(stderr).toContain('interrupted; writing the reports');
    expect(code).toBe(2);
    const report = readReport(dir);
    expect(report.client?.interrupted).toBe(true);
    expect(report.client?.exchanges).toHaveLength(1);
    expect(report.exit_reason).toMatch(/interrupted/);
    expect(stdout).toContain('The command was interrupted; 1 requests to the sandbox.');
  });
});
