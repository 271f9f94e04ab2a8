import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { allFiles, readReport } from './support/report-files.js';
import { type CliResult, fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

const ACCESS_KEY_ID = 'odp_test_ak_AAAAbbbbCCCCddddEEEEffff';
const SECRET_KEY = 'odp_test_sk_SeCrEt0123456789abcdefXYZ';
const CONTROL_TOKEN = 'ctl-Token-9f8e7d6c5b4a';
const BASIC = Buffer.from(`${ACCESS_KEY_ID}:${SECRET_KEY}`).toString('base64');

/** What must not appear anywhere: the values (also escaped: their distinctive cores) and secret shapes. */
const FORBIDDEN: [string, RegExp][] = [
  ['the partner secret', /SeCrEt0123456789abcdefXYZ/],
  ['the control token', /Token-9f8e7d6c5b4a/],
  ['the Basic credentials', new RegExp(BASIC.slice(0, 24).replace(/[+/]/g, '\\$&'))],
  ['a Secret Key shape', /odp\\?_(test|live)\\?_sk\\?_[A-Za-z0-9]{8,}/],
  ['an access token shape', /odp\\?_at\\?_[A-Za-z0-9]{8,}/],
  ['Basic credentials', /Basic [A-Za-z0-9+/]{20,}/],
];

let target: TinyTarget;
let result: CliResult;
const dir = join(emptyDir(), 'secrets');

beforeAll(async () => {
  target = await startTinyTarget('echo', CONTROL_TOKEN);
  result = await runCli(
    [
      '--target',
      target.origin,
      '--control-url',
      `${target.origin}/__control`,
      '--report-dir',
      dir,
      ...fixtureSuites('secrets'),
    ],
    { CONTROL_TOKEN, PARTNER_ACCESS_KEY_ID: ACCESS_KEY_ID, PARTNER_SECRET_KEY: SECRET_KEY },
  );
});

afterAll(async () => {
  await target?.close();
});

describe('a run that used secrets', () => {
  it('ran the leaking checks: the target saw the credentials and echoed them', () => {
    expect(result.code, result.stderr).toBe(2);
    expect(target.seen).toContain('GET /__control/capabilities');
    expect(target.seen).toContain('POST /api/on-demand/v1/oauth/token');
    const echoed = readReport(dir).results.find((r) =>
      r.evidence?.some((e) => e.response?.body?.includes('you_sent')),
    );
    expect(echoed).toBeDefined();
  });

  it('leaves no secret in any report file, Allure results included', () => {
    const files = allFiles(dir);
    expect(files.map((f) => f.path.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(['report.json', 'report.html', 'junit.xml', 'summary.md']),
    );
    expect(files.some((f) => f.path.includes('allure-results'))).toBe(true);
    for (const file of files) {
      for (const [what, pattern] of FORBIDDEN) {
        expect(pattern.test(file.text), `${what} in ${file.path}`).toBe(false);
      }
    }
  });

  it('leaves no secret in what it printed', () => {
    for (const [what, pattern] of FORBIDDEN)
      expect(pattern.test(`${result.stdout}${result.stderr}`), what).toBe(false);
    expect(result.stdout).toContain('[REDACTED');
  });
});
