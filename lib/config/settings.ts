import { randomInt } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import type { Rule } from '../../rules/index.js';
import { ConfigError, quote } from './config-error.js';
import { Environment, type Sourced } from './environment.js';
import { parseOnly } from './only.js';
import { type OptionName, optionSpec } from './options.js';
import { COMPILED, PACKAGE_ROOT } from './package-root.js';
import { parseFlags } from './parse-flags.js';
import { DEFAULT_PROFILE, type LoadedProfile, loadProfile } from './profile.js';
import { unknownSettingWarnings } from './unknown-settings.js';
import { controlBase, targetOrigin } from './urls.js';
import { loadWorkflowSettings, type WorkflowSettings } from './workflow-settings.js';

/** Everything the user asked for, validated. Holds secrets: never print it. */
export interface Settings {
  /** Target origin; undefined: test the bundled reference server. */
  target?: string;
  controlUrl?: string;
  controlToken?: string;
  partnerKey?: { accessKeyId: string; secretKey: string };
  profile: LoadedProfile;
  /** Absolute. */
  reportDir: string;
  /** Upper-cased rule ids and areas; empty: every rule. */
  only: string[];
  seed: number;
  numRuns: number;
  requestTimeoutMs: number;
  /** `--concurrency`: check files at a time; undefined: the runner's default for the target. */
  concurrency?: number;
  allowLiveOrders: boolean;
  /** `--certify`: outcome `partial` exits 3. */
  certify: boolean;
  /** Absolute path of a previous report.json. */
  compare?: string;
  /** Glob of check files, relative to the suite's own directory. */
  suites: string;
  /** Things the user should know that are not errors (ignored settings). */
  notices: string[];
  /** Certification and nightly settings (lib/config/workflow-settings.ts); absent in older callers. */
  workflow?: WorkflowSettings;
  /** `--draft-profile FILE` (absolute): write a draft profile of the target there instead of running checks. */
  draftProfile?: string;
  /** `--draft-profile-from FILE` (absolute): with `draftProfile`, draft from this OpenAPI document first. */
  draftProfileFrom?: string;
  /** `--openapi FILE` (absolute): write the OpenAPI description of the profile's dialect there and exit. */
  openapi?: string;
}

export type LoadResult = { help: true } | { help: false; settings: Settings };

// Compiled (the package, a checkout's compiled copy), the check files are JavaScript too.
export const DEFAULT_SUITES = `suites/**/*.check.${COMPILED ? 'js' : 'ts'}`;
const DEFAULT_NUM_RUNS = 100;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** `--concurrency`'s upper bound: each file holds its own account, keys and connections on the target. */
export const MAX_CONCURRENCY = 32;

export interface LoadInput {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  rules: readonly Rule[];
  /** For the default report directory's name. */
  now?: Date;
}

/** Flags over environment over `.env` over profile defaults; any bad value throws a ConfigError. */
export function loadSettings(input: LoadInput): LoadResult {
  const flags = parseFlags(input.argv);
  if (flags.get('help') === true) return { help: true };
  const environment = Environment.load(input.cwd, input.env);
  const unknown = unknownSettingWarnings(environment.names());
  try {
    return resolveSettings(input, flags, environment, unknown);
  } catch (error) {
    // A misspelt name is the likeliest cause of a missing setting: the error names it too.
    if (!(error instanceof ConfigError) || unknown.length === 0) throw error;
    const said = error.message.slice(error.setting.length + 2);
    throw new ConfigError(error.setting, `${said} (${unknown.join('; ')})`);
  }
}

function resolveSettings(
  input: LoadInput,
  flags: ReturnType<typeof parseFlags>,
  environment: Environment,
  unknown: readonly string[],
): LoadResult {
  const read = (name: OptionName): Sourced<string> | undefined => {
    const flag = flags.get(name);
    if (typeof flag === 'string') return { value: flag.trim(), source: `--${name}` };
    return environment.get(optionSpec(name).env);
  };
  const readList = (name: OptionName): Sourced<string[]> | undefined => {
    const flag = flags.get(name);
    if (Array.isArray(flag)) return { value: flag, source: `--${name}` };
    const env = environment.get(optionSpec(name).env);
    return env ? { value: [env.value], source: env.source } : undefined;
  };
  const readBoolean = (name: OptionName): boolean => {
    if (flags.get(name) === true) return true;
    const env = environment.get(optionSpec(name).env);
    if (!env) return false;
    if (/^(1|true|yes|on)$/i.test(env.value)) return true;
    if (/^(0|false|no|off)$/i.test(env.value)) return false;
    throw new ConfigError(env.source, `must be true or false, got ${quote(env.value)}`);
  };

  const notices: string[] = [...unknown];
  const profileSetting = read('profile');
  const profile = profileSetting
    ? loadProfile(profileSetting.value, profileSetting.source, input.cwd)
    : read('target')
      ? DEFAULT_PROFILE
      : bundledReferenceProfile(input.cwd);
  if (profile.notice) notices.push(profile.notice);

  const targetSetting =
    read('target') ??
    (profile.target ? { value: profile.target, source: `${profile.file}: target` } : undefined);
  const target = targetSetting
    ? targetOrigin(targetSetting.value, targetSetting.source)
    : undefined;

  const controlSetting =
    read('control-url') ??
    (profile.controlUrl
      ? { value: profile.controlUrl, source: `${profile.file}: controlUrl` }
      : undefined);
  const tokenSetting = read('control-token');
  let controlUrl: string | undefined;
  let controlToken: string | undefined;
  if (target) {
    if (controlSetting) {
      controlUrl = controlBase(controlSetting.value, controlSetting.source);
      if (!tokenSetting) {
        throw new ConfigError(
          'CONTROL_TOKEN',
          `is required with a control URL (${controlSetting.source})`,
        );
      }
      // The token is masked wherever it could appear; a very short one could not be told from text.
      if (tokenSetting.value.length < 8) {
        throw new ConfigError(
          tokenSetting.source,
          'must be at least 8 characters, so that reports can mask it reliably',
        );
      }
      controlToken = tokenSetting.value;
    } else if (tokenSetting) {
      throw new ConfigError(
        'CONTROL_URL',
        `is required with a control token (${tokenSetting.source}); give --control-url or drop the token`,
      );
    }
  } else if (controlSetting) {
    throw new ConfigError(
      controlSetting.source,
      'needs a target (--target): without one the suite tests its bundled reference with its own control API',
    );
  } else if (tokenSetting) {
    // Not an error (a shell may export it for other work), but never dropped without a word.
    notices.push(
      `${tokenSetting.source} is not used: with no target the bundled reference runs with a control token of its own`,
    );
  }

  const partnerKey = readPartnerKey(environment, profile);
  if (partnerKey && !target) {
    // A key with no target is a target lost on the way (a misspelt or malformed .env line, say):
    // testing the bundled reference instead would hand back a green report for the wrong server.
    throw new ConfigError(
      'PARTNER_ACCESS_KEY_ID',
      'is set but no target is: give --target (TARGET_BASE_URL) of the server the key belongs to, or unset the key to test the bundled reference',
    );
  }

  const onlySetting = readList('only');
  const only = onlySetting ? parseOnly(onlySetting.value, onlySetting.source, input.rules) : [];

  const seedSetting = read('seed');
  const seed = seedSetting
    ? integer(seedSetting, -(2 ** 31), 2 ** 31 - 1)
    : randomInt(0, 2 ** 31 - 1);
  const numRunsSetting = read('num-runs');
  const numRuns = numRunsSetting ? integer(numRunsSetting, 1, 100_000) : DEFAULT_NUM_RUNS;
  const timeoutSetting = read('timeout');
  const requestTimeoutMs = timeoutSetting
    ? integer(timeoutSetting, 100, 600_000)
    : DEFAULT_TIMEOUT_MS;

  const concurrencySetting = read('concurrency');
  const concurrency = concurrencySetting
    ? integer(concurrencySetting, 1, MAX_CONCURRENCY)
    : undefined;
  if (concurrencySetting && target && !controlUrl) {
    // Partner mode runs its files one after another: they share one key's rate limits (run-suites.ts).
    notices.push(
      `${concurrencySetting.source} is not used: without a control API every check file shares the partner key's rate limits, so they run one at a time`,
    );
  }

  const reportDirSetting = read('report-dir');
  const reportDir = reportDirSetting
    ? resolve(input.cwd, reportDirSetting.value)
    : defaultReportDir(input.cwd, input.now ?? new Date());

  const compareSetting = read('compare');
  let compare: string | undefined;
  if (compareSetting) {
    compare = resolve(input.cwd, compareSetting.value);
    if (!existsSync(compare))
      throw new ConfigError(compareSetting.source, `no file ${quote(compareSetting.value)}`);
  }

  const workflow = loadWorkflowSettings(read, input.cwd, input.rules);

  const draftSetting = read('draft-profile');
  const draftProfile = draftSetting ? resolve(input.cwd, draftSetting.value) : undefined;
  if (draftSetting && draftProfile && existsSync(draftProfile)) {
    throw new ConfigError(
      draftSetting.source,
      `${quote(draftSetting.value)} exists: a draft never overwrites a file; give a new name or move that one away`,
    );
  }

  const fromSetting = read('draft-profile-from');
  let draftProfileFrom: string | undefined;
  if (fromSetting) {
    if (!draftSetting)
      throw new ConfigError(
        fromSetting.source,
        'needs --draft-profile FILE: where the draft drafted from it goes',
      );
    draftProfileFrom = resolve(input.cwd, fromSetting.value);
    if (!existsSync(draftProfileFrom) || !statSync(draftProfileFrom).isFile())
      throw new ConfigError(fromSetting.source, `no file ${quote(fromSetting.value)}`);
  }

  const openapiSetting = read('openapi');
  const openapi = openapiSetting ? resolve(input.cwd, openapiSetting.value) : undefined;
  if (openapiSetting && openapi && existsSync(openapi)) {
    throw new ConfigError(
      openapiSetting.source,
      `${quote(openapiSetting.value)} exists: --openapi never overwrites a file; give a new name or move that one away`,
    );
  }
  if (openapiSetting && draftSetting)
    throw new ConfigError(openapiSetting.source, 'and --draft-profile are two commands: give one');

  const suitesSetting = read('suites');
  const suites = suitesSetting ? suitesGlob(suitesSetting, input.cwd) : DEFAULT_SUITES;

  return {
    help: false,
    settings: {
      ...(target ? { target } : {}),
      ...(controlUrl ? { controlUrl } : {}),
      ...(controlToken ? { controlToken } : {}),
      ...(partnerKey && target ? { partnerKey } : {}),
      profile,
      reportDir,
      only,
      seed,
      numRuns,
      requestTimeoutMs,
      ...(concurrency !== undefined && !(target && !controlUrl) ? { concurrency } : {}),
      allowLiveOrders: readBoolean('allow-live-orders'),
      certify: readBoolean('certify'),
      ...(compare ? { compare } : {}),
      suites,
      notices,
      workflow,
      ...(draftProfile ? { draftProfile } : {}),
      ...(draftProfileFrom ? { draftProfileFrom } : {}),
      ...(openapi ? { openapi } : {}),
    },
  };
}

/** The bundled reference is tested with its own profile (its docs_url included). */
function bundledReferenceProfile(cwd: string): LoadedProfile {
  const file = join(PACKAGE_ROOT, 'config', 'reference.json');
  return existsSync(file) ? loadProfile(file, 'config/reference.json', cwd) : DEFAULT_PROFILE;
}

/** Both halves or neither, each in the shape of the API document (section 2). Never echoed. */
function readPartnerKey(
  environment: Environment,
  profile: LoadedProfile,
): { accessKeyId: string; secretKey: string } | undefined {
  const id = environment.get('PARTNER_ACCESS_KEY_ID');
  const secret = environment.get('PARTNER_SECRET_KEY');
  if (!id && !secret) return undefined;
  if (!id) throw new ConfigError('PARTNER_ACCESS_KEY_ID', 'is required with PARTNER_SECRET_KEY');
  if (!secret)
    throw new ConfigError('PARTNER_SECRET_KEY', 'is required with PARTNER_ACCESS_KEY_ID');
  const prefix = profile.dialect.keyPrefix;
  const idMode = new RegExp(`^${prefix}_(test|live)_ak_[A-Za-z0-9]+$`).exec(id.value)?.[1];
  if (!idMode) {
    throw new ConfigError(id.source, `must look like ${prefix}_test_ak_… or ${prefix}_live_ak_…`);
  }
  const secretMode = new RegExp(`^${prefix}_(test|live)_sk_[A-Za-z0-9]+$`).exec(secret.value)?.[1];
  if (!secretMode) {
    throw new ConfigError(
      secret.source,
      `must look like ${prefix}_test_sk_… or ${prefix}_live_sk_… (value not shown)`,
    );
  }
  if (secretMode !== idMode) {
    throw new ConfigError(
      secret.source,
      `is a ${secretMode} key but the Access Key ID is a ${idMode} key`,
    );
  }
  return { accessKeyId: id.value, secretKey: secret.value };
}

function integer(setting: Sourced<string>, min: number, max: number): number {
  const number = /^-?\d+$/.test(setting.value) ? Number(setting.value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new ConfigError(
      setting.source,
      `must be an integer from ${min} to ${max}, got ${quote(setting.value)}`,
    );
  }
  return number;
}

/** `reports/2025-01-31T12-00-00Z`; a suffix when a run in the same second took the name. */
export function defaultReportDir(cwd: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const base = join(cwd, 'reports', stamp);
  let dir = base;
  for (let n = 2; existsSync(dir); n += 1) dir = `${base}-${n}`;
  return dir;
}

/**
 * A user's glob is relative to the working directory; vitest wants it
 * relative to the suite's root. A glob that matches no check file is a
 * typo, never a run of nothing: one line, exit 2.
 */
function suitesGlob(setting: Sourced<string>, cwd: string): string {
  const value = setting.value;
  const absolute = isAbsolute(value) ? value : resolve(cwd, value);
  if (globSync(absolute, { onlyFiles: true }).length === 0) {
    throw new ConfigError(
      setting.source,
      `${quote(value)} matches no check file (from ${cwd}); the bundled checks are ${DEFAULT_SUITES} in ${PACKAGE_ROOT}`,
    );
  }
  return absolute.startsWith(PACKAGE_ROOT) ? absolute.slice(PACKAGE_ROOT.length) : absolute;
}
