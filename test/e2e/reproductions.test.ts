import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report, RuleResult } from '../../lib/reports/report-model.js';
import { SafetyNet } from '../../lib/reports/safety-net.js';
import type { DefectName } from '../../server/defects/catalogue.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * A failure the server's developers can replay without the suite.
 * The reference started with sixteen defects of the defect matrix, between
 * them every kind of check a reproduction must cover, is certified once;
 * each failed rule's repro/<RULE>.mjs is then run from an empty directory
 * with only PATH and the secret, against it and against the correct
 * reference, as a node:test suite, and in its curl form.
 */
const DEFECTS: { defect: DefectName; rule: string; kind: string }[] = [
  { defect: 'cancel-twice', rule: 'CANCEL-05', kind: 'sequence' },
  { defect: 'cancel-after-production', rule: 'CANCEL-04', kind: 'sequence (production)' },
  { defect: 'cancel-after-window', rule: 'CANCEL-03', kind: 'clock (cancel window)' },
  { defect: 'token-lives-3700s', rule: 'AUTH-06', kind: 'clock (token expiry)' },
  { defect: 'probation-never-lifted', rule: 'PROB-03', kind: 'clock (probation)' },
  { defect: 'idem-replay-new-id', rule: 'IDEM-07', kind: 'idempotency replay' },
  { defect: 'idem-conflict-replays', rule: 'IDEM-09', kind: 'idempotency conflict' },
  { defect: 'retry-after-missing', rule: 'RATE-04', kind: 'rate limit' },
  { defect: 'declined-as-payment-failed', rule: 'PAY-01', kind: 'payment' },
  { defect: 'idem-after-commit-record-lost', rule: 'IDEM-11', kind: '500 fault' },
  { defect: 'cancel-scope-not-enforced', rule: 'SCOPE-01', kind: 'scopes' },
  { defect: 'other-account-orders-visible', rule: 'MODE-03', kind: 'two accounts' },
  { defect: 'test-key-sees-live-orders', rule: 'MODE-01', kind: 'two modes' },
  { defect: 'read-only-orders-placed', rule: 'SVC-02', kind: 'service state' },
  { defect: 'problem-title-missing', rule: 'ERR-02', kind: 'problem+json' },
  { defect: 'external-id-lookup-forgets-after-day', rule: 'MODEL-01', kind: 'model-based' },
];
const RULES = DEFECTS.map((d) => d.rule);
/** Far beyond what a loaded machine needs: the rule is no test with a time budget. */
const PATIENCE = 30 * 60_000;

interface Ran {
  code: number | null;
  out: string;
}

/** A command as the server's developers run it: an empty directory, only PATH (node on it) and `env`. */
function run(
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
function counts(out: string): { pass: number; fail: number } {
  const read = (name: string) => Number(new RegExp(`^[ℹ#] ${name} (\\d+)`, 'm').exec(out)?.[1]);
  return { pass: read('pass'), fail: read('fail') };
}

async function controlServer(
  controlToken: string,
  defects: DefectName[] = [],
): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    controlToken,
    db: ':memory:',
    ...(defects.length ? { defects } : {}),
  });
  afterAll(() => server.close());
  return server;
}

describe('standalone reproductions of a defective reference', () => {
  const controlToken = randomBytes(16).toString('hex');
  const secret = { CONTROL_TOKEN: controlToken };
  const reportDir = emptyDir('repro-run-');
  let bad: RunningServer;
  let good: RunningServer;
  let report: Report;
  let failed: RuleResult[];
  const direct = new Map<string, { bad: Ran; good: Ran }>();

  beforeAll(async () => {
    bad = await controlServer(
      controlToken,
      DEFECTS.map((d) => d.defect),
    );
    good = await controlServer(controlToken);
    const result = await runCli(
      [
        ...['--target', bad.origin, '--control-url', `${bad.origin}/__control`],
        ...['--allow-live-orders', '--only', RULES.join(','), '--report-dir', reportDir],
      ],
      secret,
    );
    expect(result.code, result.stderr).toBe(1);
    report = readReport(reportDir);
    failed = report.results.filter((r) => r.verdict === 'failed');
    // Each reproduction copied alone into an empty directory: no suite, no install, no report.
    await Promise.all(
      failed.map(async (result) => {
        const dir = emptyDir('repro-alone-');
        const file = `${result.rule_id}.mjs`;
        copyFileSync(join(reportDir, 'repro', file), join(dir, file));
        const against = (server: RunningServer) =>
          run(
            process.execPath,
            [file, '--target', server.origin, '--control-url', `${server.origin}/__control`],
            dir,
            secret,
          );
        direct.set(result.rule_id, { bad: await against(bad), good: await against(good) });
      }),
    );
  }, PATIENCE);

  test('the run fails every rule the defects break, each with a reproduction and its source', () => {
    expect(failed.map((r) => r.rule_id).sort()).toEqual([...RULES].sort());
    for (const result of failed) {
      expect(result.reproduce?.file, result.rule_id).toBe(`repro/${result.rule_id}.mjs`);
      expect(result.source?.quote.length, result.rule_id).toBeGreaterThan(8);
    }
    const html = readFileSync(join(reportDir, 'report.html'), 'utf8');
    const summary = readFileSync(join(reportDir, 'summary.md'), 'utf8');
    const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
    const quote = failed.find((r) => r.rule_id === 'CANCEL-05')?.source?.quote ?? '(none)';
    expect(html).toContain('<blockquote class="quote"');
    expect(html).toContain('already cancelled');
    expect(summary).toContain(quote);
    expect(junit).toContain('already cancelled');
    expect(readFileSync(join(reportDir, 'repro', 'README.md'), 'utf8')).toContain('docs/replay.md');
  });

  test.each(DEFECTS)(
    '$rule ($kind): REPRODUCED against the defect, NOT REPRODUCED against the correct reference',
    ({ rule }) => {
      const ran = direct.get(rule);
      if (!ran) throw new Error(`${rule} has no reproduction`);
      expect(ran.bad.out, `${rule} against the defect`).toMatch(
        new RegExp(`^REPRODUCED: ${rule} `, 'm'),
      );
      expect(ran.bad.code, ran.bad.out).toBe(1);
      expect(ran.good.out, `${rule} against the correct reference`).toContain('NOT REPRODUCED');
      expect(ran.good.code, ran.good.out).toBe(0);
    },
  );

  test(
    'node --test repro/: one failing test per failed result against the defect, all passing against the correct reference',
    async () => {
      const onBad = await run(process.execPath, ['--test', 'repro/'], reportDir, {
        ...secret,
        TARGET_BASE_URL: bad.origin,
        CONTROL_URL: `${bad.origin}/__control`,
      });
      expect(counts(onBad.out), onBad.out).toEqual({ pass: 0, fail: failed.length });
      const onGood = await run(process.execPath, ['--test', 'repro/'], reportDir, {
        ...secret,
        TARGET_BASE_URL: good.origin,
        CONTROL_URL: `${good.origin}/__control`,
      });
      expect(counts(onGood.out), onGood.out).toEqual({ pass: failed.length, fail: 0 });
    },
    PATIENCE,
  );

  test(
    'the curl form, run by sh, shows the same failing status and code',
    async () => {
      let compared = 0;
      const ranAll = await Promise.all(
        failed.map(async (result) => {
          const dir = emptyDir('repro-curl-');
          writeFileSync(
            join(dir, 'reproduce.sh'),
            `${(result.reproduce?.curl ?? []).join('\n')}\n`,
          );
          const ran = await run('sh', ['reproduce.sh'], dir, {
            ...secret,
            TARGET: bad.origin,
            CONTROL_URL: `${bad.origin}/__control`,
          });
          return { result, ran };
        }),
      );
      for (const { result, ran } of ranAll) {
        const marked = [
          ...ran.out.matchAll(
            /-> HTTP (\d+) ?(\S*) +\(the failing answer; the run got HTTP (\d+) ?([^)\s]*)\)/g,
          ),
        ];
        for (const [, status, code, runStatus, runCode] of marked) {
          expect(`${status} ${code}`, `${result.rule_id}\n${ran.out}`).toBe(
            `${runStatus} ${runCode}`,
          );
          compared += 1;
        }
      }
      // Every result whose violations name an answer was compared (IDEM-07 compares two answers).
      expect(compared).toBeGreaterThanOrEqual(failed.length - 1);
    },
    PATIENCE,
  );

  test("no file under repro/ holds a secret: the report's safety net finds nothing to clean", () => {
    const net = new SafetyNet({ keyPrefix: 'odp', controlToken });
    const files = readdirSync(join(reportDir, 'repro'));
    expect(files.length).toBe(failed.length + 3);
    for (const name of files) {
      const text = readFileSync(join(reportDir, 'repro', name), 'utf8');
      expect(net.clean(text), name).toBe(text);
      expect(text, name).not.toContain(controlToken);
      expect(text, name).not.toMatch(/odp_(test|live)_sk_|odp_at_/);
    }
    for (const result of failed) {
      expect(result.reproduce?.command, result.rule_id).toMatch(
        /^CONTROL_TOKEN="\$CONTROL_TOKEN" npx partner-ordering-conformance /,
      );
      expect(result.reproduce?.curl.join('\n')).not.toContain(controlToken);
    }
  });
});

describe('a partner-mode reproduction', () => {
  const controlToken = randomBytes(16).toString('hex');

  /** A test key of a fresh account, made through the control API the run is not told of. */
  async function partnerKey(server: RunningServer): Promise<Record<string, string>> {
    const control = (path: string, body: unknown) =>
      fetch(`${server.origin}/__control${path}`, {
        method: 'POST',
        headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => res.json() as Promise<Record<string, string>>);
    const account = await control('/accounts', {});
    const key = await control(`/accounts/${account.id}/keys`, { mode: 'test' });
    return {
      PARTNER_ACCESS_KEY_ID: key.access_key_id ?? '',
      PARTNER_SECRET_KEY: key.secret_key ?? '',
    };
  }

  test(
    'reproduces a defect a partner key can see, with only the partner key in the environment',
    async () => {
      const bad = await controlServer(controlToken, ['cancel-twice']);
      const good = await controlServer(controlToken);
      const badKey = await partnerKey(bad);
      const reportDir = emptyDir('repro-partner-');
      const result = await runCli(
        ['--target', bad.origin, '--only', 'CANCEL-05', '--report-dir', reportDir],
        badKey,
      );
      expect(result.code, result.stderr).toBe(1);
      const dir = emptyDir('repro-partner-alone-');
      copyFileSync(join(reportDir, 'repro', 'CANCEL-05.mjs'), join(dir, 'CANCEL-05.mjs'));
      const text = readFileSync(join(dir, 'CANCEL-05.mjs'), 'utf8');
      expect(text).not.toContain(badKey.PARTNER_SECRET_KEY);
      expect(text).toContain('"mode": "partner"');

      const onBad = await run(process.execPath, ['CANCEL-05.mjs'], dir, badKey);
      expect(onBad.out).toMatch(/^REPRODUCED: CANCEL-05 /m);
      expect(onBad.code, onBad.out).toBe(1);
      // The partner's own key on the fixed server: the same sequence, judged again.
      const onGood = await run(
        process.execPath,
        ['CANCEL-05.mjs', '--target', good.origin],
        dir,
        await partnerKey(good),
      );
      expect(onGood.out).toContain('NOT REPRODUCED');
      expect(onGood.code, onGood.out).toBe(0);
      // Without the secret it cannot run, and says so.
      const bare = await run(process.execPath, ['CANCEL-05.mjs'], dir, {});
      expect(bare.code).toBe(2);
      expect(bare.out).toContain('PARTNER_SECRET_KEY');
    },
    PATIENCE,
  );
});
