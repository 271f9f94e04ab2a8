import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer } from '../../server/start.js';
import { allFiles, readReport } from '../engine/support/report-files.js';
import { type CliResult, runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * With only a partner key and no control API, the run passes what
 * it can, marks the rest not_verifiable naming what is missing, places
 * nothing it leaves behind, and leaks no secret. The partner key is made
 * through the reference's control API, which the run itself is not told of.
 */
// A set whose requests fit one minute of the key's documented limits: no rate-limit wait.
const AREAS = 'AUTH,KEY,SCOPE,URL,ACCT,PAY,PROB,SVC,CANCEL,MODE,HOOK-05,TOKEN-21';
const CAPABILITY_WORDS =
  /accounts|keys|clock|production|shipping|service_state|faults|payments|whoami|live_orders|--allow-live-orders|live key/;

describe('a run with one partner test key and no control API', () => {
  const controlToken = randomBytes(16).toString('hex');
  let origin = '';
  let partner = { id: '', secret: '' };
  let result: CliResult;
  let noKey: CliResult;
  const reportDir = emptyDir('partner-run-');
  const noKeyDir = emptyDir('no-key-run-');

  beforeAll(async () => {
    const server = await startServer({ port: 0, controlToken, db: ':memory:' });
    afterAll(() => server.close());
    origin = server.origin;
    const control = (path: string, body: unknown) =>
      fetch(`${origin}/__control${path}`, {
        method: 'POST',
        headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => res.json() as Promise<Record<string, string>>);
    const account = await control('/accounts', {});
    const key = await control(`/accounts/${account.id}/keys`, { mode: 'test' });
    partner = { id: key.access_key_id!, secret: key.secret_key! };
    result = await runCli(['--target', origin, '--only', AREAS, '--report-dir', reportDir], {
      PARTNER_ACCESS_KEY_ID: partner.id,
      PARTNER_SECRET_KEY: partner.secret,
    });
    // The same target with no key at all (and no control API): only checks that send no key run.
    noKey = await runCli(['--target', origin, '--only', AREAS, '--report-dir', noKeyDir]);
  });

  /** "N of M rules will end not_verifiable for what this run lacks (…)": the run's own prediction. */
  const predicted = (run: CliResult) =>
    Number(
      /(\d+) of \d+ rules will end not_verifiable for what this run lacks/.exec(run.stderr)?.[1],
    );

  test('predicts exactly the not_verifiable count, with a key and with none', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(noKey.code, noKey.stderr).toBe(0);
    const withKey = readReport(reportDir);
    const without = readReport(noKeyDir);
    expect(predicted(result)).toBe(withKey.summary.not_verifiable);
    expect(predicted(noKey)).toBe(without.summary.not_verifiable);
    // The partner key has all four scopes: TOKEN-21 is predicted, and is not verifiable.
    expect(withKey.results.find((r) => r.rule_id === 'TOKEN-21')?.verdict).toBe('not_verifiable');
    expect(without.summary.not_verifiable).toBeGreaterThan(withKey.summary.not_verifiable);
    // Every hint names its fix, in the terminal.
    expect(noKey.stdout).toContain('PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY');
    expect(result.stdout).toContain('--control-url URL with CONTROL_TOKEN');
  });

  test('conforms: exit 0, no failure, no error', () => {
    expect(result.code, result.stderr).toBe(0);
    const { summary } = readReport(reportDir);
    expect(summary.failed).toBe(0);
    expect(summary.error).toBe(0);
  });

  test('gives real verdicts where one key suffices, and names what is missing everywhere else', () => {
    const report = readReport(reportDir);
    const inScope = report.results.filter((r) => r.verdict !== 'skipped');
    const passed = inScope.filter((r) => r.verdict === 'passed');
    const unverifiable = inScope.filter((r) => r.verdict === 'not_verifiable');
    expect(passed.length).toBeGreaterThanOrEqual(15);
    expect(unverifiable.length).toBeGreaterThanOrEqual(20);
    for (const r of unverifiable) expect(r.reason ?? '', r.rule_id).toMatch(CAPABILITY_WORDS);
    // Checks that need only a key really ran with the partner key.
    expect(passed.map((r) => r.rule_id)).toEqual(
      expect.arrayContaining(['AUTH-01', 'CANCEL-01', 'HOOK-05']),
    );
  });

  test('leaves nothing behind: its orders are cancelled and its webhook endpoints deleted', async () => {
    const basic = Buffer.from(`${partner.id}:${partner.secret}`).toString('base64');
    const tokenRes = await fetch(`${origin}/api/on-demand/v1/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const get = (path: string) =>
      fetch(`${origin}/api/on-demand/v1${path}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((res) => res.json() as Promise<{ data: { status?: string }[]; has_more: boolean }>);
    const orders = await get('/orders?limit=100');
    expect(orders.data.length).toBeGreaterThan(0);
    expect(orders.data.filter((o) => o.status !== 'cancelled')).toEqual([]);
    expect((await get('/webhook-endpoints?limit=100')).data).toEqual([]);
  });

  test('never writes the partner secret or a token into any report file', () => {
    for (const file of allFiles(reportDir)) {
      expect(file.text.includes(partner.secret), file.path).toBe(false);
      expect(file.text, file.path).not.toMatch(
        /odp_(test|live)_sk_[A-Za-z0-9]{8,}|odp_at_[A-Za-z0-9]{8,}/,
      );
    }
  });
});
