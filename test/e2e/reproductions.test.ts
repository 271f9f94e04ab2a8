import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Report, RuleResult } from '../../lib/reports/report-model.js';
import { SafetyNet } from '../../lib/reports/safety-net.js';
import type { DefectName } from '../../server/defects/catalogue.js';
import type { RunningServer } from '../../server/start.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import {
  alone,
  controlServer,
  counts,
  leftOver,
  type Ran,
  run,
  runCurlForm,
} from './support/reproductions.js';

/**
 * A failure the server's developers can replay without the suite, in a
 * fix-and-check loop. The reference started with seventeen defects of the
 * defect matrix, between them every kind of check a reproduction must cover,
 * is certified once; each failed rule's repro/<RULE>.mjs is then run from an
 * empty directory with only PATH and the secret, against it and against the
 * correct reference, as a node:test suite, and in its curl form. After all of
 * it, the correct reference holds nothing the reproductions made but
 * accounts with nothing open in them.
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
  { defect: 'test-key-sees-live-orders', rule: 'MODE-01', kind: 'two modes (live orders)' },
  { defect: 'read-only-orders-placed', rule: 'SVC-02', kind: 'service state' },
  { defect: 'problem-title-missing', rule: 'ERR-02', kind: 'problem+json' },
  { defect: 'external-id-lookup-forgets-after-day', rule: 'MODEL-01', kind: 'model-based' },
  { defect: 'webhook-limit-across-modes', rule: 'HOOK-02', kind: 'webhook endpoints' },
];
const RULES = DEFECTS.map((d) => d.rule);
/** Far beyond what a loaded machine needs: the rule is no test with a time budget. */
const PATIENCE = 30 * 60_000;

describe('standalone reproductions of a defective reference', () => {
  const controlToken = randomBytes(16).toString('hex');
  const secret = { CONTROL_TOKEN: controlToken };
  // Live orders are real: the reproductions of a run that placed them ask for the same consent.
  const consent = { ...secret, CONFORMANCE_ALLOW_LIVE_ORDERS: '1' };
  const reportDir = emptyDir('repro-run-');
  const goodDb = join(emptyDir('repro-good-db-'), 'reference.db');
  let bad: RunningServer;
  let good: RunningServer;
  let report: Report;
  let failed: RuleResult[];
  const direct = new Map<string, { bad: Ran; good: Ran; withoutConsent?: Ran }>();
  const curl = new Map<string, { bad: Ran; good: Ran }>();

  beforeAll(async () => {
    bad = await controlServer(
      controlToken,
      DEFECTS.map((d) => d.defect),
    );
    good = await controlServer(controlToken, [], { db: goodDb });
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
    // Each reproduction alone in an empty directory: only --target; the control URL follows it.
    await Promise.all(
      failed.map(async (result) => {
        const { dir, file } = alone(reportDir, result);
        const against = (server: RunningServer, env: Record<string, string> = consent) =>
          run(process.execPath, [file, '--target', server.origin], dir, env);
        const ran = { bad: await against(bad), good: await against(good) };
        const live =
          result.rule_id === 'MODE-01' ? { withoutConsent: await against(good, secret) } : {};
        direct.set(result.rule_id, { ...ran, ...live });
        const curlAgainst = (server: RunningServer) =>
          runCurlForm(result, { ...consent, TARGET: server.origin });
        curl.set(result.rule_id, { bad: await curlAgainst(bad), good: await curlAgainst(good) });
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
    expect(summary).toContain('sh repro/CANCEL-05.sh');
    expect(junit).toContain('already cancelled');
    const readme = readFileSync(join(reportDir, 'repro', 'README.md'), 'utf8');
    expect(readme).toContain('docs/replay.md');
    // No registry page that does not exist (the package is not published).
    expect(readme).not.toContain('npmjs.com');
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
      expect(ran.good.out, `${rule} against the correct reference`).toMatch(
        new RegExp(`^NOT REPRODUCED: ${rule} `, 'm'),
      );
      expect(ran.good.code, ran.good.out).toBe(0);
    },
  );

  test.each(DEFECTS)(
    '$rule ($kind), curl form: exit 1 printing the judged value against the defect, 0 against the correct reference',
    ({ rule }) => {
      const ran = curl.get(rule);
      if (!ran) throw new Error(`${rule} has no curl form`);
      // What came and what the rule requires, not only a status.
      expect(ran.bad.out, `${rule} against the defect`).toMatch(
        new RegExp(`^REPRODUCED: ${rule} .+; required: `, 'm'),
      );
      expect(ran.bad.code, ran.bad.out).toBe(1);
      expect(ran.good.out).toMatch(new RegExp(`^NOT REPRODUCED: ${rule} .+, as required`, 'm'));
      expect(ran.good.code, ran.good.out).toBe(0);
    },
  );

  test('a reproduction that places live orders asks for the same consent as the suite', () => {
    const ran = direct.get('MODE-01')?.withoutConsent;
    expect(ran?.out).toMatch(/^CANNOT RUN: .*live key.*--allow-live-orders/m);
    expect(ran?.code).toBe(2);
  });

  test(
    'node --test repro/: one failing test per failed result against the defect, all passing against the correct reference',
    async () => {
      const onBad = await run(process.execPath, ['--test', 'repro/'], reportDir, {
        ...consent,
        TARGET_BASE_URL: bad.origin,
      });
      expect(counts(onBad.out), onBad.out).toMatchObject({ pass: 0, fail: failed.length });
      const onGood = await run(process.execPath, ['--test', 'repro/'], reportDir, {
        ...consent,
        TARGET_BASE_URL: good.origin,
      });
      expect(counts(onGood.out), onGood.out).toMatchObject({ pass: failed.length, fail: 0 });
    },
    PATIENCE,
  );

  test(
    'after every reproduction against the correct reference, nothing is left open there',
    async () => {
      await good.close();
      expect(await leftOver(goodDb, controlToken)).toEqual([]);
    },
    PATIENCE,
  );

  test('MODEL-01 quotes the sentence of its failing step, not the rule’s first', () => {
    const text = readFileSync(join(reportDir, 'repro', 'MODEL-01.mjs'), 'utf8');
    const quoted = /^\/\/ Rests on \(api section \d\): "(.*)"$/m.exec(text)?.[1];
    const model = failed.find((r) => r.rule_id === 'MODEL-01');
    const step = model?.violations?.find((v) => v.sentence)?.sentence?.quote;
    expect(step).toBeDefined();
    expect(quoted).toBe(step);
  });

  test("no file under repro/ holds a secret, a placeholder credential or a tracker's number", () => {
    const net = new SafetyNet({ keyPrefix: 'odp', controlToken });
    const files = readdirSync(join(reportDir, 'repro'));
    // A .mjs and a .sh per failure, README.md, package.json, test.mjs.
    expect(files.length).toBe(2 * failed.length + 3);
    for (const name of files) {
      const text = readFileSync(join(reportDir, 'repro', name), 'utf8');
      expect(net.clean(text), name).toBe(text);
      expect(text, name).not.toContain(controlToken);
      expect(text, name).not.toMatch(/odp_(test|live)_sk_[A-Za-z0-9]|odp_at_[A-Za-z0-9]/);
      // The plan the file carries (its runtime prints `[REDACTED]` for --verbose).
      const data = name.endsWith('.mjs') ? text.slice(0, text.indexOf(';\n\n')) : text;
      expect(data, name).not.toContain('[REDACTED');
      expect(text, name).not.toMatch(/issue \d+/i);
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
      const cancel = readReport(reportDir).results.find((r) => r.rule_id === 'CANCEL-05');
      if (!cancel) throw new Error('no CANCEL-05');
      const { dir, file } = alone(reportDir, cancel);
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text).not.toContain(badKey.PARTNER_SECRET_KEY);
      expect(text).toContain('"mode": "partner"');

      const onBad = await run(process.execPath, [file], dir, badKey);
      expect(onBad.out).toMatch(/^REPRODUCED: CANCEL-05 /m);
      expect(onBad.code, onBad.out).toBe(1);
      // The partner's own key on the fixed server: the same sequence, judged again.
      const onGood = await run(process.execPath, [file, '--target', good.origin], dir, {
        ...(await partnerKey(good)),
      });
      expect(onGood.out).toContain('NOT REPRODUCED');
      expect(onGood.code, onGood.out).toBe(0);
      // Without the secret it cannot run, and says so.
      const bare = await run(process.execPath, [file], dir, {});
      expect(bare.code).toBe(2);
      expect(bare.out).toContain('PARTNER_SECRET_KEY');
    },
    PATIENCE,
  );
});
