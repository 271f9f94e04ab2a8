import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longRunLanes } from '../../lib/check/property.js';
import { ConfigError } from '../../lib/config/config-error.js';
import { isSelected, testNamePattern } from '../../lib/config/only.js';
import { loadSettings, type Settings } from '../../lib/config/settings.js';
import {
  checkFilesAtATime,
  checksSideBySide,
  EMBEDDED_CONCURRENCY,
  EMBEDDED_SIDE_BY_SIDE,
  REMOTE_CONCURRENCY,
} from '../../lib/plan/concurrency.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { activeRules } from '../../rules/index.js';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';

const ID = 'odp_test_ak_AAAAbbbbCCCCddddEEEEffff';
const SECRET = 'odp_test_sk_SeCrEt0123456789abcdefXYZ';

function load(argv: string[], env: Record<string, string> = {}, cwd = emptyDir()): Settings {
  const result = loadSettings({
    argv,
    env,
    cwd,
    rules: activeRules,
    now: new Date('2025-03-04T05:06:07.890Z'),
  });
  if (result.help) throw new Error('unexpected help');
  return result.settings;
}

function errorOf(argv: string[], env: Record<string, string> = {}, cwd = emptyDir()): ConfigError {
  try {
    load(argv, env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('settings', () => {
  it('says so when a control token is set but unused (no target), without showing it', () => {
    const token = 'unused-control-token-1234';
    const settings = load([], { CONTROL_TOKEN: token });
    expect(settings.controlToken).toBeUndefined();
    expect(settings.notices.join('\n')).toMatch(/CONTROL_TOKEN is not used/);
    expect(settings.notices.join('\n')).not.toContain(token);
  });

  it('defaults: the bundled reference, reports/<UTC timestamp>, 100 runs, a random seed', () => {
    const cwd = emptyDir();
    const settings = load([], {}, cwd);
    expect(settings.target).toBeUndefined();
    expect(settings.reportDir).toBe(join(cwd, 'reports', '2025-03-04T05-06-07Z'));
    expect(settings.numRuns).toBe(100);
    expect(Number.isInteger(settings.seed)).toBe(true);
    // The bundled reference comes with its own profile, docs_url included.
    expect(settings.profile.dialect).toEqual({
      ...REFERENCE_DIALECT,
      docsUrl: 'https://docs.example.com',
    });
  });

  it('holds a given target to the plain reference dialect unless a profile says more', () => {
    expect(load(['--target', 'http://x.test']).profile.dialect).toEqual(REFERENCE_DIALECT);
  });

  it('flags win over the environment, which wins over .env', () => {
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, '.env'),
      'TARGET_BASE_URL=http://from-dotenv.test\nCONFORMANCE_SEED=1\nCONFORMANCE_NUM_RUNS=7\n',
    );
    const fromFile = load([], {}, cwd);
    expect(fromFile.target).toBe('http://from-dotenv.test');
    expect(fromFile.numRuns).toBe(7);
    const fromEnv = load(
      [],
      { TARGET_BASE_URL: 'http://from-env.test', CONFORMANCE_SEED: '2' },
      cwd,
    );
    expect(fromEnv.target).toBe('http://from-env.test');
    expect(fromEnv.seed).toBe(2);
    const fromFlag = load(
      ['--target', 'http://from-flag.test/', '--seed', '3'],
      { TARGET_BASE_URL: 'http://from-env.test' },
      cwd,
    );
    expect(fromFlag.target).toBe('http://from-flag.test');
    expect(fromFlag.seed).toBe(3);
  });

  it('takes the API base path off a target URL and keeps a gateway prefix', () => {
    expect(load(['--target', 'https://x.test/api/on-demand/v1/']).target).toBe('https://x.test');
    expect(load(['--target', 'https://x.test/partner']).target).toBe('https://x.test/partner');
  });

  it('reads the partner key from the environment, both halves', () => {
    const settings = load(['--target', 'http://x.test'], {
      PARTNER_ACCESS_KEY_ID: ID,
      PARTNER_SECRET_KEY: SECRET,
    });
    expect(settings.partnerKey).toEqual({ accessKeyId: ID, secretKey: SECRET });
  });

  it('refuses a .env line dotenv would drop, naming the line and never echoing it', () => {
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, '.env'),
      `# sandbox\nTARGET_BASE_URL https://sandbox.test\nPARTNER_SECRET_KEY=${SECRET}\nNOTE="two\nlines"\n`,
    );
    expect(() => load([], {}, cwd)).toThrow(
      /^\.env: line 2 is not NAME=value \(a setting there would be ignored\)$/,
    );
  });

  it('treats blank variables (a copied .env.example) as unset', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, '.env'), 'TARGET_BASE_URL=\nCONTROL_TOKEN=\nPARTNER_SECRET_KEY=\n');
    expect(load([], {}, cwd).target).toBeUndefined();
  });

  it('loads a profile by name from config/ and by path, over the reference dialect', () => {
    const cwd = emptyDir();
    mkdirSync(join(cwd, 'config'));
    const profile = {
      docsUrl: 'https://docs.acme.test/',
      dialect: { keyPrefix: 'acme', paths: { invoice: '/invoices/{id}' } },
    };
    writeFileSync(join(cwd, 'config', 'acme.json'), JSON.stringify(profile));
    for (const value of ['acme', './config/acme.json']) {
      const { dialect } = load(['--profile', value], {}, cwd).profile;
      expect(dialect.keyPrefix).toBe('acme');
      expect(dialect.docsUrl).toBe('https://docs.acme.test');
      expect(dialect.paths.invoice).toBe('/invoices/{id}');
      expect(dialect.paths.shipments).toBe(REFERENCE_DIALECT.paths.shipments);
    }
  });

  it('finds the bundled reference profile', () => {
    expect(load(['--profile', 'reference']).profile.dialect.docsUrl).toBe(
      'https://docs.example.com',
    );
  });
});

describe('configuration errors name the setting', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['a bad seed', ['--seed', 'abc'], {}, /^--seed: must be an integer/],
    ['a bad seed from the environment', [], { CONFORMANCE_SEED: '1.5' }, /^CONFORMANCE_SEED: /],
    ['zero runs', ['--num-runs', '0'], {}, /^--num-runs: /],
    ['a bad timeout', ['--timeout', '10s'], {}, /^--timeout: /],
    ['not a URL', ['--target', 'localhost:4010'], {}, /^--target: .*(URL|http)/],
    [
      'credentials in the URL',
      ['--target', 'https://u:p@x.test'],
      {},
      /^--target: must not hold credentials/,
    ],
    ['an unknown flag', ['--tagret', 'http://x.test'], {}, /^--tagret: unknown option/],
    ['a flag without its value', ['--target'], {}, /^--target: needs a value/],
    ['a stray argument', ['http://x.test'], {}, /^command line: unexpected argument/],
    [
      'an unknown rule in --only',
      ['--only', 'IDEM-03,NOPE-01'],
      {},
      /^--only: "NOPE-01" is neither/,
    ],
    [
      'a control URL without token',
      ['--target', 'http://x.test', '--control-url', 'http://x.test/c'],
      {},
      /^CONTROL_TOKEN: is required/,
    ],
    [
      'a control token too short to be masked reliably',
      ['--target', 'http://x.test', '--control-url', 'http://x.test/c'],
      { CONTROL_TOKEN: 'abc12' },
      /^CONTROL_TOKEN: must be at least 8 characters/,
    ],
    [
      'a token without control URL',
      ['--target', 'http://x.test'],
      { CONTROL_TOKEN: 'abcdefgh' },
      /^CONTROL_URL: is required/,
    ],
    [
      'a control URL without target',
      ['--control-url', 'http://x.test/c'],
      {},
      /^--control-url: needs a target/,
    ],
    [
      'a partner key without a target (it would test the bundled reference instead)',
      [],
      { PARTNER_ACCESS_KEY_ID: ID, PARTNER_SECRET_KEY: SECRET },
      /^PARTNER_ACCESS_KEY_ID: is set but no target is/,
    ],
    [
      'a half partner key',
      ['--target', 'http://x.test'],
      { PARTNER_ACCESS_KEY_ID: ID },
      /^PARTNER_SECRET_KEY: is required/,
    ],
    [
      'an unknown profile',
      ['--profile', 'nope'],
      {},
      /^--profile: no profile "nope" in config\/ \(available: .*reference/,
    ],
    [
      'a missing compare file',
      ['--compare', 'old/report.json'],
      {},
      /^--compare: no file "old\/report.json"/,
    ],
    [
      'a concurrency of zero',
      ['--concurrency', '0'],
      {},
      /^--concurrency: must be an integer from 1 to 32, got "0"/,
    ],
    [
      'a concurrency above 32',
      [],
      { CONFORMANCE_CONCURRENCY: '33' },
      /^CONFORMANCE_CONCURRENCY: must be an integer from 1 to 32/,
    ],
    [
      'a fractional concurrency',
      ['--concurrency', '2.5'],
      {},
      /^--concurrency: must be an integer/,
    ],
    [
      'a concurrency that is no number',
      ['--concurrency', 'many'],
      {},
      /^--concurrency: must be an integer/,
    ],
    [
      'a bad boolean',
      [],
      { CONFORMANCE_ALLOW_LIVE_ORDERS: 'maybe' },
      /^CONFORMANCE_ALLOW_LIVE_ORDERS: must be true or false/,
    ],
  ];
  it.each(cases)('%s', (_name, argv, env, message) => {
    expect(errorOf(argv, env).message).toMatch(message);
  });

  it('never echoes a malformed secret', () => {
    const wrong = 'hunter2-not-a-key-at-all';
    const error = errorOf(['--target', 'http://x.test'], {
      PARTNER_ACCESS_KEY_ID: ID,
      PARTNER_SECRET_KEY: wrong,
    });
    expect(error.message).toMatch(/^PARTNER_SECRET_KEY: must look like odp_test_sk_/);
    expect(error.message).not.toContain(wrong);
  });

  it('names the profile field that is wrong, and sends secrets to the environment', () => {
    const cwd = emptyDir();
    const write = (name: string, body: unknown) =>
      writeFileSync(join(cwd, name), typeof body === 'string' ? body : JSON.stringify(body));
    write('a.json', '{ not json');
    write('b.json', { dialect: { paths: { invoice: '/invoices/{order_id}' } } });
    write('c.json', { dialect: { path: {} } });
    write('d.json', { controlToken: 'x' });
    write('e.json', { dialect: { orderCreatedStatus: 404 } });
    expect(errorOf(['--profile', './a.json'], {}, cwd).message).toMatch(
      /^--profile: a\.json is not valid JSON/,
    );
    expect(errorOf(['--profile', './b.json'], {}, cwd).message).toMatch(
      /^b\.json: dialect\.paths\.invoice: must contain exactly the placeholders \{id\}/,
    );
    expect(errorOf(['--profile', './c.json'], {}, cwd).message).toMatch(
      /^c\.json: dialect\.path: unknown setting/,
    );
    expect(errorOf(['--profile', './d.json'], {}, cwd).message).toMatch(
      /^d\.json: controlToken: secrets do not belong/,
    );
    expect(errorOf(['--profile', './e.json'], {}, cwd).message).toMatch(
      /^e\.json: dialect\.orderCreatedStatus: /,
    );
  });
});

describe('--concurrency', () => {
  const control = ['--target', 'http://x.test', '--control-url', 'http://x.test/c'];
  const token = { CONTROL_TOKEN: 'control-token-1234' };

  it('is unset unless given: the runner picks the default for the target', () => {
    expect(load([]).concurrency).toBeUndefined();
    expect(load(control, token).concurrency).toBeUndefined();
  });

  it('reads the flag over the environment', () => {
    expect(
      load([...control, '--concurrency', '12'], { ...token, CONFORMANCE_CONCURRENCY: '3' })
        .concurrency,
    ).toBe(12);
    expect(load([], { CONFORMANCE_CONCURRENCY: ' 4 ' }).concurrency).toBe(4);
    expect(load(['--concurrency', '1']).concurrency).toBe(1);
    expect(load(['--concurrency', '32']).concurrency).toBe(32);
  });

  it("is not used in partner mode, and says so: the files share one key's rate limits", () => {
    const settings = load(['--target', 'http://x.test', '--concurrency', '8'], {
      PARTNER_ACCESS_KEY_ID: ID,
      PARTNER_SECRET_KEY: SECRET,
    });
    expect(settings.concurrency).toBeUndefined();
    expect(settings.notices.join('\n')).toMatch(/--concurrency is not used: .*one at a time/);
  });
});

describe('check files at a time', () => {
  it('defaults by target: the bundled reference shares our CPU, a remote target is waited on', () => {
    expect(checkFilesAtATime({ embedded: true, control: true })).toBe(EMBEDDED_CONCURRENCY);
    expect(checkFilesAtATime({ embedded: false, control: true })).toBe(REMOTE_CONCURRENCY);
    expect(REMOTE_CONCURRENCY).toBeGreaterThan(EMBEDDED_CONCURRENCY);
  });

  it('takes --concurrency, beyond the number of cores', () => {
    expect(checkFilesAtATime({ embedded: true, control: true, requested: 16 })).toBe(16);
    expect(checkFilesAtATime({ embedded: false, control: true, requested: 1 })).toBe(1);
  });

  it("goes side by side within the bundled reference's one file at a time; elsewhere as far as its files", () => {
    expect(checksSideBySide({ embedded: true, control: true })).toBe(EMBEDDED_SIDE_BY_SIDE);
    expect(EMBEDDED_SIDE_BY_SIDE).toBeGreaterThan(EMBEDDED_CONCURRENCY);
    expect(checksSideBySide({ embedded: false, control: true })).toBe(REMOTE_CONCURRENCY);
    // --concurrency sets both: 1 is one check after another.
    expect(checksSideBySide({ embedded: true, control: true, requested: 1 })).toBe(1);
    expect(checksSideBySide({ embedded: true, control: true, requested: 3 })).toBe(3);
    expect(checksSideBySide({ embedded: false, control: false })).toBe(1);
  });

  it('runs one file at a time without a control API, whatever was asked', () => {
    expect(checkFilesAtATime({ embedded: false, control: false })).toBe(1);
    expect(checkFilesAtATime({ embedded: false, control: false, requested: 8 })).toBe(1);
  });

  it('gives a property of long runs three lanes per file at a time, at most 32; one at one file', () => {
    expect(longRunLanes(1)).toBe(1);
    expect(longRunLanes(2)).toBe(6);
    expect(longRunLanes(REMOTE_CONCURRENCY)).toBe(24);
    expect(longRunLanes(16)).toBe(32);
  });
});

describe('--only', () => {
  it('selects ids and whole areas, case-insensitively, comma-separated or repeated', () => {
    const rule = activeRules[0];
    if (!rule) throw new Error('empty catalogue');
    const settings = load(['--only', `${rule.id.toLowerCase()},IDEM`, '--only', 'token']);
    expect(settings.only).toEqual([rule.id, 'IDEM', 'TOKEN']);
    expect(isSelected(settings.only, 'IDEM-07')).toBe(true);
    expect(isSelected(settings.only, 'ORDER-01')).toBe(false);
  });

  it('matches test names "<id> <title>", behind describe names too', () => {
    const pattern = testNamePattern(['IDEM-03', 'TOKEN']);
    expect(pattern?.test(' IDEM-03 MUST replay')).toBe(true);
    expect(pattern?.test('replays IDEM-03 MUST replay')).toBe(true);
    expect(pattern?.test(' TOKEN-11 MUST x')).toBe(true);
    expect(pattern?.test(' IDEM-031 MUST x')).toBe(false);
    expect(pattern?.test(' XTOKEN-11 MUST x')).toBe(false);
    expect(testNamePattern([])).toBeUndefined();
  });
});

describe('the command line on bad configuration', () => {
  it('prints one line naming the setting, no stack trace, and exits 2', async () => {
    const result = await runCli(['--num-runs', 'lots']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      'conformance: error: --num-runs: must be an integer from 1 to 100000, got "lots"',
    ]);
  });

  it('prints help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--allow-live-orders');
    expect(result.stdout).toContain('PARTNER_SECRET_KEY');
  });
});
