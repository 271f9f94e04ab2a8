import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sha256 } from '../../lib/reports/file-hashes.js';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { allFiles, readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

/** HAR 1.2's required fields (http://www.softwareishard.com/blog/har-12-spec/), strictly typed. */
const NameValue = z.object({ name: z.string(), value: z.string() });
const Har12 = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    pages: z.array(
      z.object({
        startedDateTime: z.iso.datetime(),
        id: z.string(),
        title: z.string(),
        pageTimings: z.object({ onContentLoad: z.number(), onLoad: z.number() }),
      }),
    ),
    entries: z.array(
      z.object({
        pageref: z.string(),
        startedDateTime: z.iso.datetime(),
        time: z.number().nonnegative(),
        request: z.object({
          method: z.string(),
          url: z.url(),
          httpVersion: z.string(),
          cookies: z.array(z.unknown()),
          headers: z.array(NameValue),
          queryString: z.array(NameValue),
          headersSize: z.number(),
          bodySize: z.number(),
          postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
        }),
        response: z.object({
          status: z.number().int(),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(z.unknown()),
          headers: z.array(NameValue),
          content: z.object({
            size: z.number(),
            mimeType: z.string(),
            text: z.string().optional(),
          }),
          redirectURL: z.string(),
          headersSize: z.number(),
          bodySize: z.number(),
        }),
        cache: z.object({}),
        timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }),
      }),
    ),
  }),
});

const MUST = pickRule('MUST').id;
let garbage: TinyTarget;
let keys: { privateFile: string; publicFile: string; otherPublicFile: string };

beforeAll(async () => {
  garbage = await startTinyTarget('garbage');
  const dir = emptyDir();
  const pair = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  keys = {
    privateFile: join(dir, 'sign.pem'),
    publicFile: join(dir, 'sign.pub.pem'),
    otherPublicFile: join(dir, 'other.pub.pem'),
  };
  writeFileSync(keys.privateFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(keys.publicFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(keys.otherPublicFile, other.publicKey.export({ type: 'spki', format: 'pem' }));
});

afterAll(async () => {
  await garbage?.close();
});

function failingRun(dir: string, extra: string[] = [], env: Record<string, string> = {}) {
  return runCli(
    [
      '--target',
      garbage.origin,
      '--report-dir',
      dir,
      '--seed',
      '9',
      ...fixtureSuites('passing'),
      ...extra,
    ],
    env,
  );
}

function waiversFile(entries: unknown): string {
  const file = join(emptyDir(), 'waivers.json');
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

describe('the certification package', () => {
  const dir = join(emptyDir(), 'signed');
  beforeAll(async () => {
    const run = await failingRun(dir, ['--sign-key', keys.privateFile]);
    expect(run.code, run.stderr).toBe(1);
  });

  it('manifest.json hashes every file of the report directory and records the run', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const files = allFiles(dir)
      .map((f) => f.path.slice(dir.length + 1))
      .filter((name) => name !== 'manifest.json' && name !== 'manifest.sig')
      .sort();
    expect(Object.keys(manifest.files).sort()).toEqual(files);
    for (const name of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'exchanges.har'])
      expect(manifest.files[name]).toBe(sha256(readFileSync(join(dir, name))));
    expect(files.some((name) => name.startsWith('allure-results/'))).toBe(true);
    const report = readReport(dir);
    expect(manifest).toMatchObject({
      suite_version: report.suite_version,
      contract_version: report.contract_version,
      seed: 9,
      target: garbage.origin,
      started_at: report.started_at,
      finished_at: report.finished_at,
      exit_code: 1,
    });
    expect(manifest.api_document.sha256).toBe(
      sha256(readFileSync(join(process.cwd(), 'docs/partner-ordering-api.md'))),
    );
    expect(manifest.profile.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(manifest.verdicts)).toHaveLength(report.results.length);
    expect(manifest.verdicts[MUST]).toMatchObject({ verdict: 'failed', level: 'MUST' });
    expect(manifest.options).toMatchObject({ seed: 9, signed: true });
  });

  it('exchanges.har is HAR 1.2, one page per rule with evidence', () => {
    const har = Har12.parse(JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')));
    const withEvidence = readReport(dir).results.filter((r) => r.evidence?.length);
    expect(har.log.pages.map((p) => p.id)).toEqual(withEvidence.map((r) => r.rule_id));
    expect(har.log.entries.length).toBe(withEvidence.flatMap((r) => r.evidence ?? []).length);
    const pages = new Set(har.log.pages.map((p) => p.id));
    expect(har.log.entries.every((entry) => pages.has(entry.pageref))).toBe(true);
    expect(har.log.entries[0]?.request.url.startsWith(garbage.origin)).toBe(true);
  });

  it('verifies with the public key; a changed byte, a wrong key or an added file fails', async () => {
    const good = await runCli(['--verify', dir, '--public-key', keys.publicFile]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Verified: \d+ files match manifest.json; signature valid/);

    const wrongKey = await runCli(['--verify', dir, '--public-key', keys.otherPublicFile]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toContain('FAIL signature invalid');

    const copy = join(emptyDir(), 'tampered');
    await import('node:fs/promises').then((fs) => fs.cp(dir, copy, { recursive: true }));
    const html = join(copy, 'report.html');
    const bytes = readFileSync(html);
    bytes[100] = bytes[100] === 65 ? 66 : 65;
    writeFileSync(html, bytes);
    const changed = await runCli(['--verify', copy, '--public-key', keys.publicFile]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('FAIL changed   report.html');

    const added = join(emptyDir(), 'added');
    await import('node:fs/promises').then((fs) => fs.cp(dir, added, { recursive: true }));
    appendFileSync(join(added, 'extra.txt'), 'x');
    const extra = await runCli(['--verify', added]);
    expect(extra.code).toBe(1);
    expect(extra.stdout).toContain('FAIL not listed extra.txt');

    const manifestChanged = join(emptyDir(), 'resigned');
    await import('node:fs/promises').then((fs) => fs.cp(dir, manifestChanged, { recursive: true }));
    const manifestFile = join(manifestChanged, 'manifest.json');
    writeFileSync(
      manifestFile,
      readFileSync(manifestFile, 'utf8').replace('"exit_code": 1', '"exit_code": 0'),
    );
    const forged = await runCli(['--verify', manifestChanged, '--public-key', keys.publicFile]);
    expect(forged.code).toBe(1);
  });

  it('refuses a sign key that is not an Ed25519 private key, before running', async () => {
    const notKey = join(emptyDir(), 'k.pem');
    writeFileSync(notKey, 'hello');
    const run = await failingRun(join(emptyDir(), 'x'), ['--sign-key', notKey]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--sign-key: ');
    expect(run.stderr).toContain('is not a PEM private key');
  });
});

describe('waivers', () => {
  it('a live waiver turns the failing run to exit 0; the failure stays failed and marked', async () => {
    const dir = join(emptyDir(), 'waived');
    const run = await failingRun(dir, [
      '--waivers',
      waiversFile([{ rule_id: MUST, reason: 'known: ticket 7', expires: '2999-01-01' }]),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = readReport(dir).results.find((r) => r.rule_id === MUST);
    expect(result?.verdict).toBe('failed');
    expect(result?.waiver).toMatchObject({ reason: 'known: ticket 7', active: true });
    // The honest line: the outcome is not hidden by the exit code.
    expect(readReport(dir).summary.outcome).toBe('does_not_conform');
    expect(readReport(dir).exit_reason).toMatch(
      /^Does not conform: 1 MUST failure, waived until 2999-01-01 \(exit 0 only because of the waivers; not a certificate/,
    );
    expect(run.stdout).toContain(
      'Exit 0: Does not conform: 1 MUST failure, waived until 2999-01-01',
    );
    expect(run.stdout).not.toMatch(/no MUST check failed/);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.options.certify).toBe(false);
    expect(manifest.options.waivers).toMatchObject({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      entries: [{ rule_id: MUST, reason: 'known: ticket 7', expires: '2999-01-01' }],
    });
    expect(manifest.verdicts[MUST]).toEqual({ verdict: 'failed', level: 'MUST', waived: true });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('waived until 2999-01-01');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('Waived: known: ticket 7');
    expect(run.stdout).toContain('(waived until 2999-01-01: known: ticket 7)');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(
      'type="MUST violation (waived)"',
    );
  });

  it('--certify ignores waivers: a waived failure is does_not_conform, exit 1, and the report names the waiver', async () => {
    const dir = join(emptyDir(), 'certified');
    const file = waiversFile([{ rule_id: MUST, reason: 'known: ticket 7', expires: '2999-01-01' }]);
    const run = await failingRun(dir, ['--certify', '--waivers', file]);
    expect(run.code, run.stderr).toBe(1);
    const report = readReport(dir);
    expect(report.summary.outcome).toBe('does_not_conform');
    expect(report.exit_reason).toContain(
      `--certify ignores waivers: a waiver would have covered ${MUST}`,
    );
    expect(report.waivers?.applied).toEqual([]);
    expect(report.waivers?.certify?.would_cover).toEqual([MUST]);
    expect(report.results.find((r) => r.rule_id === MUST)?.waiver).toMatchObject({
      active: true,
      ignored_by_certify: true,
    });
    expect(run.stdout).toMatch(/^Exit 1: /m);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).not.toContain('(waived)');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ exit_code: 1, outcome: 'does_not_conform' });
    expect(manifest.options).toMatchObject({ certify: true, target_name: garbage.origin });
    expect(manifest.options.waivers).toMatchObject({
      file,
      sha256: sha256(readFileSync(file)),
      ignored_by_certify: true,
    });
    expect(manifest.verdicts[MUST]).toEqual({ verdict: 'failed', level: 'MUST' });
  });

  it('an expired waiver no longer counts and the report says so; an unused one is listed', async () => {
    const dir = join(emptyDir(), 'expired');
    // Passes against this target (its check accepts any of 200, 401, 404); a rule with no check here
    // (MUST #1) is not_verifiable, which says nothing about its waiver: not listed.
    const other = pickRule('DIALECT').id;
    const unrun = pickRule('MUST', 1).id;
    const run = await failingRun(dir, [], {
      CONFORMANCE_WAIVERS: waiversFile([
        { rule_id: MUST, reason: 'was known', expires: '2020-01-01' },
        { rule_id: other, reason: 'stale', expires: '2999-01-01', link: 'https://bugs.example/1' },
        { rule_id: unrun, reason: 'not run here', expires: '2999-01-01' },
      ]),
    });
    expect(run.code, run.stderr).toBe(1);
    const report = readReport(dir);
    expect(report.waivers?.expired).toEqual([
      { rule_id: MUST, expires: '2020-01-01', reason: 'was known' },
    ]);
    expect(report.results.find((r) => r.rule_id === other)?.verdict).toBe('passed');
    expect(report.waivers?.unused.map((w) => w.rule_id)).toEqual([other]);
    expect(report.results.find((r) => r.rule_id === MUST)?.waiver?.active).toBe(false);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('waiver EXPIRED 2020-01-01');
    expect(summary).toContain(`unused: **${other}**`);
  });

  it.each([
    [
      'not a list',
      { rule_id: 'X' },
      /^conformance: error: --waivers: .* must hold a JSON list of waivers$/m,
    ],
    [
      'a missing expiry',
      [{ rule_id: MUST, reason: 'r' }],
      new RegExp(`--waivers: waiver 1 \\(${MUST}\\): expires is required`),
    ],
    [
      'an unknown rule',
      [
        { rule_id: MUST, reason: 'r', expires: '2999-01-01' },
        { rule_id: 'NOPE-99', reason: 'r', expires: '2999-01-01' },
      ],
      /--waivers: waiver 2 \(NOPE-99\): rule_id NOPE-99 names no rule of the catalogue/,
    ],
    [
      'a bad date',
      [{ rule_id: MUST, reason: 'r', expires: 'soon' }],
      /waiver 1 \([A-Z]+-\d{2}\): expires must be a date \(YYYY-MM-DD\) or an ISO 8601 time/,
    ],
    [
      'an unknown field',
      [{ rule_id: MUST, reason: 'r', expires: '2999-01-01', until: 1 }],
      /waiver 1 .*: unknown field "until"/,
    ],
  ])('a malformed file (%s) is exit 2 naming the entry', async (_name, entries, message) => {
    const run = await failingRun(join(emptyDir(), 'bad'), ['--waivers', waiversFile(entries)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/ZodError|"code":|invalid_type/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('history', () => {
  it("keeps each run's report.json and shows each rule's trend in report.json, report.html and summary.md", async () => {
    const history = join(emptyDir(), 'history');
    const passing = await startTinyTarget('unauthorized');
    try {
      const runAt = (origin: string, dir: string) =>
        runCli([
          '--target',
          origin,
          '--report-dir',
          dir,
          '--history',
          history,
          ...fixtureSuites('passing'),
        ]);
      // Same target origin for the comparison: the garbage run is kept under the passing one's name.
      const first = await runAt(passing.origin, join(emptyDir(), 'h1'));
      expect(first.code, first.stderr).toBe(0);
      const second = join(emptyDir(), 'h2');
      expect((await runAt(passing.origin, second)).code).toBe(0);
      expect(readdirSync(history)).toHaveLength(2);
      const report = readReport(second);
      expect(report.history?.comparable_runs).toBe(1);
      expect(report.history?.rules[MUST]?.verdicts).toEqual(['passed', 'passed']);
      expect(readFileSync(join(second, 'summary.md'), 'utf8')).toContain('## History');
      expect(readFileSync(join(second, 'report.html'), 'utf8')).toContain(
        `class="trend" data-rule="${MUST}"`,
      );
    } finally {
      await passing.close();
    }
  });
});

describe('history keyed by --target-name', () => {
  it('a target on a new port keeps its history under its name; a regression is listed as one', async () => {
    const history = join(emptyDir(), 'named');
    const before = await startTinyTarget('unauthorized');
    try {
      const run = (origin: string, dir: string) =>
        runCli([
          '--target',
          origin,
          '--report-dir',
          dir,
          '--history',
          history,
          '--target-name',
          'tiny',
          ...fixtureSuites('passing'),
        ]);
      expect((await run(before.origin, join(emptyDir(), 'n1'))).code).toBe(0);
      // The same name on another port, now answering garbage: compared, and a regression.
      const second = join(emptyDir(), 'n2');
      const broken = await run(garbage.origin, second);
      expect(broken.code).toBe(1);
      const report = readReport(second);
      expect(report.target_info.target_name).toBe('tiny');
      expect(report.history).toMatchObject({ target_name: 'tiny', comparable_runs: 1 });
      expect(report.history?.new_failures).toContain(MUST);
      expect(broken.stdout).toMatch(
        new RegExp(`History \\(1 earlier runs of tiny\\): regressions [^;]*${MUST}`),
      );
      const manifest = JSON.parse(readFileSync(join(second, 'manifest.json'), 'utf8'));
      expect(manifest.options.target_name).toBe('tiny');
      expect(garbage.origin).not.toBe(before.origin);
    } finally {
      await before.close();
    }
  });
});

describe('throttling', () => {
  it('a target that keeps answering 429 leaves checks not_verifiable (throttled), never failed or error', async () => {
    const throttling = await startTinyTarget('throttle');
    try {
      const dir = join(emptyDir(), 'throttled');
      const run = await runCli(
        ['--target', throttling.origin, '--report-dir', dir, ...fixtureSuites('throttled')],
        {
          PARTNER_ACCESS_KEY_ID: 'odp_test_ak_throttled1',
          PARTNER_SECRET_KEY: 'odp_test_sk_throttledSecret1',
        },
      );
      expect(run.code, run.stderr).toBe(0);
      // The rules the fixture's check file holds (the rest were left out by --suites: skipped).
      const checked = readReport(dir).results.filter(
        (r) => r.file !== undefined && r.verdict !== 'skipped',
      );
      expect(checked).toHaveLength(2);
      for (const result of checked) {
        expect(result.verdict, result.rule_id).toBe('not_verifiable');
        expect(result.reason).toMatch(
          /^throttled: the target kept answering 429 to .* after 3 tries/,
        );
      }
      // Each request was tried three times: once, and twice more after Retry-After.
      expect(
        throttling.seen.filter((line) => !line.includes('/__control')).length,
      ).toBeGreaterThanOrEqual(6);
      expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(
        'rules need a target that does not keep answering 429 (throttled): run when the sandbox is quiet',
      );
    } finally {
      await throttling.close();
    }
  });
});
