import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { markdownText } from '../../lib/reports/markdown-text.js';
import { VERDICTS } from '../../lib/verdict/words.js';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { launchChromium, NO_BROWSER } from './support/chromium.js';
import { expectCrashedGroupReport } from './support/crashed-group.js';
import { readReport } from './support/report-files.js';
import { BIN, type CliResult, fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

/** The fields section 4 of the target contract fixes; additions are allowed, these never go. */
const ContractReport = z.object({
  suite_version: z.string(),
  target: z.string(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  seed: z.number().int(),
  summary: z.object(Object.fromEntries(VERDICTS.map((v) => [v, z.number().int().min(0)]))),
  results: z.array(
    z.object({
      rule_id: z.string(),
      title: z.string(),
      section: z.string(),
      level: z.enum(['MUST', 'SHOULD', 'DIALECT']),
      verdict: z.enum(VERDICTS),
      reason: z.string().optional(),
      evidence: z.array(z.unknown()).optional(),
    }),
  ),
});

let good: TinyTarget;
let garbage: TinyTarget;
const passDir = join(emptyDir(), 'pass');
const garbageDir = join(emptyDir(), 'garbage');
let pass: CliResult;
let broken: CliResult;

beforeAll(async () => {
  good = await startTinyTarget('unauthorized');
  garbage = await startTinyTarget('garbage');
  pass = await runCli([
    '--target',
    good.origin,
    '--report-dir',
    passDir,
    ...fixtureSuites('passing'),
  ]);
  // Compared with the passing run: the verdicts that changed are listed.
  broken = await runCli([
    '--target',
    garbage.origin,
    '--report-dir',
    garbageDir,
    '--compare',
    join(passDir, 'report.json'),
    ...fixtureSuites('passing'),
  ]);
});

afterAll(async () => {
  await good?.close();
  await garbage?.close();
});

/** The Allure result files a run wrote into its report directory, read. */
function allureResults(reportDir: string): {
  name: string;
  fullName: string;
  historyId: string;
  testCaseId: string;
  status: string;
  labels: { name: string; value: string }[];
}[] {
  const dir = join(reportDir, 'allure-results');
  return readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

describe('a run against a target that answers as the checks expect', () => {
  it('exits 0 and writes every report', () => {
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toContain('Exit 0: no MUST check failed and none ended in error');
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md']) {
      expect(existsSync(join(passDir, file)), file).toBe(true);
    }
    // One result per rule, as junit.xml has: the rules no check of this run saw are completed.
    expect(allureResults(passDir)).toHaveLength(readReport(passDir).results.length);
  });

  it('writes report.json in the contract shape, one result per active rule', () => {
    const report = ContractReport.parse(readReport(passDir));
    const counted = Object.values(report.summary).reduce((a, b) => a + b, 0);
    expect(counted).toBe(report.results.length);
    expect(report.summary).toMatchObject({ passed: 2, warning: 1, failed: 0, error: 0 });
    expect(report.target).toBe(good.origin);
  });

  it('reports the rules --suites left out as skipped, never as uncovered', () => {
    const results = readReport(passDir).results;
    expect(results.filter((r) => r.uncovered)).toEqual([]);
    const left = results.filter((r) => r.verdict === 'skipped');
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => r.reason === 'filtered out by --suites' && r.file)).toBe(true);
    expect(pass.stdout).toContain('need a check file --suites left out: widen --suites');
  });

  it('refuses a --suites pattern that matches no check file: exit 2, one line', async () => {
    const run = await runCli(['--suites', 'suites/nothing/*.check.ts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^conformance: error: --suites: "suites\/nothing\/\*\.check\.ts" matches no check file/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('lists only profiles as profiles, never the JSON Schema', async () => {
    const run = await runCli(['--profile', 'nosuch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(available: reference)');
    expect(run.stderr).not.toContain('profile.schema');
  });

  it('names an Allure result by its check file as report.json does, with its rule as its identity', () => {
    const byRule = new Map(readReport(passDir).results.map((r) => [r.rule_id, r]));
    const written = allureResults(passDir);
    // The checks the run ran (the completed results of rules no check saw carry no package).
    const ran = written.filter((r) => r.labels.some((l) => l.name === 'package'));
    expect(ran.length).toBeGreaterThan(0);
    for (const result of ran) {
      const file = byRule.get(result.name.split(' ')[0] ?? '')?.file;
      expect(file, result.name).toMatch(/\.check\.ts$/);
      expect(result.fullName).toBe(`${file}#${result.name}`);
      expect(result.labels).toContainEqual({ name: 'package', value: file?.replaceAll('/', '.') });
      // As a result completed at the run's end has it (allure-complete.ts): the rule's history
      // goes on whatever copy of the suite ran it.
      const id = createHash('md5').update(result.name).digest('hex');
      expect([result.historyId, result.testCaseId]).toEqual([id, id]);
    }
  });

  it('maps an Allure result to the conformance verdict (a warning passes)', () => {
    const results = allureResults(passDir);
    const warning = results.find((r) =>
      r.labels.some((l) => l.name === 'tag' && l.value === 'warning'),
    );
    expect(warning?.status).toBe('passed');
  });
});

describe('a run against a target that answers garbage', () => {
  it('ends with exit 1, without a crash or a stack trace', () => {
    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stdout).toContain('MUST failures:');
    expect(`${broken.stdout}${broken.stderr}`).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });

  it('records the garbage as evidence of the failure', () => {
    const failed = readReport(garbageDir).results.find((r) => r.verdict === 'failed');
    expect(failed?.violations?.[0]).toMatchObject({ code: 'STATUS', expected: 401, received: 200 });
    expect(failed?.evidence?.[0]?.response?.body).toContain('<html>"nope');
    expect(failed?.evidence?.[0]?.response?.headers['content-type']).toBe('application/json');
  });

  it('lists the verdicts that changed since the compared run (stdout, summary.md, report.json)', () => {
    const report = readReport(garbageDir);
    const changed = report.changes?.changed ?? [];
    expect(changed).toHaveLength(1);
    const change = changed[0];
    expect(change).toMatchObject({ from: 'passed', to: 'failed' });
    const line = `${change?.rule_id}: passed -> failed`;
    expect(broken.stdout).toContain('Changes since');
    expect(broken.stdout).toContain(line);
    // summary.md holds it as Markdown text, every markup character escaped (it renders as the line).
    expect(readFileSync(join(garbageDir, 'summary.md'), 'utf8')).toContain(markdownText(line));
  });
});

describe.skipIf(NO_BROWSER)("the garbage run's report.html", () => {
  it('opens in headless Chromium and filters to the failure', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(join(garbageDir, 'report.html')).href);
      expect(await page.textContent('#outcome')).toBe('Does not conform');
      await page.selectOption('#filter-verdict', 'failed');
      const visible = await page.$$eval(
        'tr.rule',
        (rows) => rows.filter((r) => !(r as unknown as { hidden: boolean }).hidden).length,
      );
      expect(visible).toBe(1);
      expect(await page.textContent('tr.rule:not([hidden])')).toContain(
        'expected HTTP 401, got 200',
      );
      expect(await page.textContent('#changes')).toContain('passed -> failed');
    } finally {
      await browser.close();
    }
  });
});

describe('a reader that goes away (EPIPE)', () => {
  it('never changes the exit code, and the reports are still written', async () => {
    const dir = join(emptyDir(), 'epipe');
    const child = spawn(
      process.execPath,
      [BIN, '--target', good.origin, '--report-dir', dir, ...fixtureSuites('passing')],
      { cwd: emptyDir(), env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // `… 2>&1 | head -1`: the reader takes one chunk of each stream and closes it.
    child.stdout.once('data', () => child.stdout.destroy());
    child.stderr.once('data', () => child.stderr.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(pass.code);
    expect(readReport(dir).exit_code).toBe(pass.code);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
  });
});

describe('--only', () => {
  it('runs the selected rules and reports every other one as skipped', async () => {
    const dir = join(emptyDir(), 'only');
    const selected = pickRule('MUST').id;
    const result = await runCli([
      '--target',
      good.origin,
      '--report-dir',
      dir,
      '--only',
      selected,
      ...fixtureSuites('passing'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = readReport(dir);
    expect(report.only).toEqual([selected]);
    expect(report.results.find((r) => r.rule_id === selected)?.verdict).toBe('passed');
    const others = report.results.filter((r) => r.rule_id !== selected);
    expect(
      others.every((r) => r.verdict === 'skipped' && r.reason === 'filtered out by --only'),
    ).toBe(true);
    expect(report.summary).toMatchObject({ passed: 1, skipped: report.results.length - 1 });
  });
});

describe('a run whose checks break', () => {
  it('exits 2, with every broken rule as error and never as failed', async () => {
    const dir = join(emptyDir(), 'crash');
    const result = await runCli([
      '--target',
      good.origin,
      '--report-dir',
      dir,
      ...fixtureSuites('crashing'),
    ]);
    expect(result.code, result.stderr).toBe(2);
    const report = readReport(dir);
    expect(report.summary.failed).toBe(0);
    const byId = new Map(report.results.map((r) => [r.rule_id, r]));
    expect(byId.get('TOKEN-01')).toMatchObject({
      verdict: 'error',
      file: 'test/engine/fixtures/crashing/broken.check.ts',
    });
    expect(byId.get('TOKEN-01')?.reason).toContain('failed to load');
    expect(byId.get('TOKEN-02')).toMatchObject({
      verdict: 'error',
      reason: 'fixture: broke outside check()',
    });
    expect(report.run_errors[0]?.rule_ids).toEqual(['TOKEN-01']);
  });
});

describe('a group (one vitest file loading several check files) whose second file breaks', () => {
  it('ends the rules of both files as error, as not loaded, naming the broken one: none passes or vanishes', async () => {
    const dir = join(emptyDir(), 'crash-group');
    const result = await runCli([
      '--target',
      good.origin,
      '--report-dir',
      dir,
      ...fixtureSuites('crashing-group', '*.group.ts'),
    ]);
    expect(result.code, result.stderr).toBe(2);
    expectCrashedGroupReport(dir);
  });
});

describe('an unreachable target', () => {
  it('refused: exit 2 at once, one line, no report directory left behind', async () => {
    const port = await closedPort();
    const dir = join(emptyDir(), 'never');
    const result = await runCli(['--target', `http://127.0.0.1:${port}`, '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `conformance: error: target http://127.0.0.1:${port} is unreachable: connection refused (ECONNREFUSED)`,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('silent (accepts, never answers): exit 2 after the request timeout, not a hang', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      // The probe waits no longer than --timeout; a hang would end at the test's timeout instead.
      const result = await runCli(['--target', `http://127.0.0.1:${port}`, '--timeout', '1000']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        `conformance: error: target http://127.0.0.1:${port} is unreachable: no answer within 1 s`,
      );
    } finally {
      silent.close();
    }
  });
});

describe('a target that stops answering half-way', () => {
  it('stops after five checks in a row cannot reach it: exit 2, the rest not run, the reason in the report', async () => {
    // The probe and the first check are answered; then the target drops every connection. (Not a
    // target that hangs: telling that apart takes a request timeout, which a busy machine reaches
    // before the first answer too; target-watch.test.ts counts timeouts the same way.)
    const dying = await startTinyTarget('unauthorized', undefined, { dieAfter: 2 });
    try {
      const dir = join(emptyDir(), 'dying');
      const result = await runCli([
        '--target',
        dying.origin,
        '--report-dir',
        dir,
        ...fixtureSuites('dying'),
      ]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        'stopping the run: the target stopped answering: 5 checks in a row could not reach it',
      );
      const report = readReport(dir);
      const ran = report.results.filter((r) => r.file?.includes('dying'));
      expect(ran).toHaveLength(20);
      // The first check passed; every other one is an error, never a failure of the target.
      expect(ran.map((r) => r.verdict)).toEqual(['passed', ...Array(19).fill('error')]);
      // The stop lands while the worker runs on, so a check or two more may start; most never do.
      const notRun = ran.filter((r) => r.reason?.startsWith('not run: the run was stopped'));
      expect(notRun.length).toBeGreaterThanOrEqual(10);
      expect(dying.seen.length).toBeLessThan(1 + 20);
      expect(report.run_errors).toContainEqual({
        source: 'target',
        message: expect.stringContaining('the target stopped answering'),
      });
      // An aborted run's Allure results are complete: one per rule, as junit.xml.
      expect(allureResults(dir)).toHaveLength(report.results.length);
    } finally {
      await dying.close();
    }
  });
});

/** A port nothing listens on: taken from the OS, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
