import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../lib/reports/report-model.js';
import { launchChromium, NO_BROWSER } from '../engine/support/chromium.js';
import { type CliResult, runCli } from '../engine/support/run-cli.js';
import {
  CHOSEN,
  type HostileOptions,
  type HostileTarget,
  startHostileTarget,
} from '../support/hostile-target.js';
import { decodeAll, filesBelow, leakedSecrets, readableIn } from '../support/leaks.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * Whole runs against a hostile target (test/support/hostile-target.ts: the
 * bundled reference behind a proxy answering as an attacker's server may).
 * Whatever it answers, the run leaks no secret it holds in any encoding,
 * prints no control character, writes reports no viewer renders an injected
 * element from, follows no redirect, reads every body up to its cap and
 * judges deep JSON as the target's answer.
 */
interface HostileRun {
  target: HostileTarget;
  controlToken: string;
  dir: string;
  result: CliResult;
  report: Report;
}

/** Generous: under load a proxied run's requests queue; no test waits on it, only the run does. */
const TIMEOUT_MS = '60000';

async function hostileRun(
  options: Omit<HostileOptions, 'controlToken'>,
  only: string,
): Promise<HostileRun> {
  const controlToken = randomBytes(18).toString('base64');
  const target = await startHostileTarget({ controlToken, ...options });
  afterAll(() => target.close());
  // Warm the proxy and the reference (a control request, leaving the first API answer to the
  // run's start-up probe): on a loaded machine a cold start may take the probe's 8 s.
  await fetch(`${target.origin}/__control/capabilities`, {
    headers: { 'x-control-token': controlToken },
  }).then((res) => res.arrayBuffer());
  const dir = join(emptyDir('hostile-'), 'report');
  const result = await runCli(
    [
      '--target',
      target.origin,
      '--control-url',
      `${target.origin}/__control`,
      '--only',
      only,
      '--timeout',
      TIMEOUT_MS,
      '--report-dir',
      dir,
    ],
    { CONTROL_TOKEN: controlToken },
  );
  const file = join(dir, 'report.json');
  expect(existsSync(file), result.stderr).toBe(true);
  return {
    target,
    controlToken,
    dir,
    result,
    report: JSON.parse(readFileSync(file, 'utf8')) as Report,
  };
}

const CONTROLS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${CONTROLS}]`);

describe('secrets the target writes escaped, with `/`, `+` and `=` in them', () => {
  let run: HostileRun;
  beforeAll(async () => {
    // Every character of every string in a random mix of raw, \u in both cases and \/; credentials
    // echoed percent-encoded (both cases) and base64 in headers.
    run = await hostileRun({ encoding: 'mixed', echoCredentials: true }, 'TOKEN,KEY,AUTH,URL');
  });

  it('ran for real: the target handed out Secret Keys and access tokens, and the run judged', () => {
    expect([...run.target.issued].filter((s) => s.includes('_sk_')).length).toBeGreaterThan(5);
    expect([...run.target.issued].filter((s) => s.includes('_at_')).length).toBeGreaterThan(5);
    expect(run.report.summary.passed).toBeGreaterThan(10);
  });

  it('leaves none of them readable in any file of the report folder, in any encoding', () => {
    const files = filesBelow(run.dir).map((file) => file.slice(run.dir.length + 1));
    expect(files).toEqual(
      expect.arrayContaining([
        'report.json',
        'report.html',
        'exchanges.har',
        'summary.md',
        'junit.xml',
      ]),
    );
    const leaked = leakedSecrets(run.dir, [...run.target.issued, run.controlToken]);
    expect([...leaked.keys()], [...leaked.values()].flat().join('\n')).toEqual([]);
  });

  it('prints none of them', () => {
    const printed = `${run.result.stdout}${run.result.stderr}`;
    for (const secret of [...run.target.issued, run.controlToken])
      expect(readableIn(printed, secret), secret).toBe(false);
  });
});

describe('a target answering injections, deep JSON, redirects and values of its own in credential fields', () => {
  let run: HostileRun;
  let browser: Browser | undefined;
  beforeAll(async () => {
    run = await hostileRun(
      {
        encoding: 'slash',
        inject: true,
        deep: (_method, path) => path.includes('/catalog'),
        // Clean-up with the control token, and reads with a bearer token: both sent elsewhere.
        redirect: (method, path) =>
          path.includes('/revoke') || (method === 'GET' && /\/orders\?/.test(path)),
      },
      'ERR,PROB,READ,KEY',
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('follows no redirect: the watcher on another port gets nothing, clean-up included', () => {
    expect(run.target.redirected.some((r) => r.includes('/revoke'))).toBe(true);
    expect(run.target.redirected.some((r) => r.startsWith('GET '))).toBe(true);
    expect(run.target.watcher.seen).toEqual([]);
  });

  it('prints no control character of the target: the counts, Outcome and Exit lines stand, none forged', () => {
    const out = run.result.stdout;
    expect(out).not.toMatch(CONTROL);
    expect(run.result.stderr).not.toMatch(CONTROL);
    const lines = out.split('\n');
    expect(lines.filter((l) => /^passed \d+ {2}failed \d+/.test(l))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('passed 193 failed 0'))).toBe(false);
    expect(lines.some((l) => l.startsWith('Outcome: '))).toBe(true);
    expect(lines.some((l) => /^Exit \d: /.test(l))).toBe(true);
    // The injected code is there, made visible.
    expect(out).toContain('validation_failed\\x1b[2K');
  });

  it('keeps summary.md free of control characters, and renders it with no injected element or heading', async () => {
    const text = readFileSync(join(run.dir, 'summary.md'), 'utf8');
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('\\\\x1b\\[2K');
    const html = new MarkdownIt({ html: true, linkify: true }).render(text);
    browser ??= await openBrowser();
    if (!browser) return;
    const page = await browser.newPage();
    await page.setContent(html);
    expect(await page.$$eval('h1', (h) => h.map((e) => e.textContent))).toEqual([
      expect.stringMatching(/^Conformance: Does not conform/),
    ]);
    expect(await page.$$('img, script, iframe, [onerror], a[href^="javascript:"]')).toHaveLength(0);
    expect(await page.title()).not.toBe('pwned');
    await page.close();
  });

  it('renders report.html with no injected element; junit.xml stays valid XML', async () => {
    browser ??= await openBrowser();
    if (!browser) return;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`file://${join(run.dir, 'report.html')}`);
    expect(await page.$$('img, iframe, [onerror]')).toHaveLength(0);
    expect(await page.$$('script')).toHaveLength(1);
    expect(await page.title()).toMatch(/^Conformance report: /);
    expect(errors).toEqual([]);
    const junit = readFileSync(join(run.dir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate(
      `new DOMParser().parseFromString(${JSON.stringify(junit)}, 'application/xml').getElementsByTagName('parsererror').length`,
    );
    expect(parsed).toBe(0);
    await page.close();
  });

  it("never hides the target's own values: `token` and `secret` fields, content types and codes stay readable", () => {
    const report = decodeAll(readFileSync(join(run.dir, 'report.json'), 'utf8'));
    expect(report).toContain(`"token":"${CHOSEN.token}"`);
    expect(report).toContain(`"secret":"${CHOSEN.secret}"`);
    expect(report).not.toMatch(/"content-type": "\[REDACTED/);
    expect(report).not.toMatch(/"(token|secret)":"\[REDACTED/);
  });

  it("judges JSON nested 100,000 levels deep as the target's answer, and the run goes on", () => {
    const output = `${run.result.stdout}${run.result.stderr}${readFileSync(join(run.dir, 'report.json'), 'utf8')}`;
    expect(output).not.toContain('Maximum call stack');
    const catalog = run.report.results.filter((r) => ['READ-08', 'READ-09'].includes(r.rule_id));
    expect(catalog).toHaveLength(2);
    for (const result of catalog) {
      expect(result.verdict, result.reason).not.toBe('error');
      expect(JSON.stringify(result)).toContain('nested deeper than 100 levels');
    }
    // Every selected rule has its verdict: none left unrun by a crash.
    expect(run.report.results.filter((r) => r.reason?.startsWith('not run'))).toEqual([]);
    expect(JSON.stringify(run.report.run_errors)).not.toMatch(/stack|stopped/);
  });

  it('keeps the secrets of the run unreadable here too (`/` written `\\/`)', () => {
    const leaked = leakedSecrets(run.dir, [...run.target.issued, run.controlToken]);
    expect([...leaked.keys()], [...leaked.values()].flat().join('\n')).toEqual([]);
  });
});

describe('a target answering without end', () => {
  let run: HostileRun;
  beforeAll(async () => {
    // Every API answer, the start-up probe's too, goes on with spaces that never end.
    run = await hostileRun({ body: 'endless', slashedSecrets: false }, 'TOKEN-01,READ');
  });

  it('reads each answer up to the cap: the target is never "unreachable", the run judges and ends', () => {
    expect(run.result.stderr).not.toContain('unreachable');
    expect(run.report.results.filter((r) => r.verdict !== 'skipped').length).toBeGreaterThan(5);
    expect(run.report.results.filter((r) => r.reason?.startsWith('not run'))).toEqual([]);
    expect(readFileSync(join(run.dir, 'report.json'), 'utf8')).toContain('answer over 2 MiB');
  });
});

async function openBrowser(): Promise<Browser | undefined> {
  return NO_BROWSER ? undefined : launchChromium();
}
