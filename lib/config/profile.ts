import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import { type Dialect, REFERENCE_DIALECT } from '../target/dialect.js';
import { ConfigError, quote } from './config-error.js';
import { PACKAGE_ROOT } from './package-root.js';
import { type Profile, ProfileSchema } from './profile-schema.js';

export interface LoadedProfile {
  /** As the user named it (`reference`, `./acme.json`), or `reference dialect` when none. */
  name: string;
  /** The file, relative to the working directory when inside it. */
  file?: string;
  dialect: Dialect;
  target?: string;
  controlUrl?: string;
}

/** No profile: the reference dialect as the target contract defines it. */
export const DEFAULT_PROFILE: LoadedProfile = {
  name: 'reference dialect',
  dialect: REFERENCE_DIALECT,
};

/**
 * Finds a profile by name (`config/<name>.json`, in the working directory
 * first, then the suite's own) or by path, and validates it.
 */
export function loadProfile(value: string, source: string, cwd: string): LoadedProfile {
  const file = locate(value, source, cwd);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    // V8's message quotes the file's text, which could be a .env given by mistake: only the position.
    const at =
      error instanceof SyntaxError
        ? /position \d+(?: \(line \d+ column \d+\))?/.exec(error.message)
        : null;
    const why =
      error instanceof SyntaxError
        ? `is not valid JSON${at ? ` (at ${at[0]})` : ''}`
        : 'cannot be read';
    throw new ConfigError(source, `${display(file, cwd)} ${why}`);
  }
  const parsed = ProfileSchema.safeParse(raw);
  if (!parsed.success) throw profileError(parsed.error, display(file, cwd));
  return {
    name: value,
    file: display(file, cwd),
    dialect: mergeDialect(parsed.data, display(file, cwd)),
    ...(parsed.data.target ? { target: parsed.data.target } : {}),
    ...(parsed.data.controlUrl ? { controlUrl: parsed.data.controlUrl } : {}),
  };
}

function locate(value: string, source: string, cwd: string): string {
  const isPath = /[/\\]/.test(value) || value.endsWith('.json');
  if (isPath) {
    const file = isAbsolute(value) ? value : resolve(cwd, value);
    if (!existsSync(file)) throw new ConfigError(source, `no profile file ${quote(value)}`);
    return file;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) {
    throw new ConfigError(source, `${quote(value)} is neither a profile name nor a path`);
  }
  const candidates = [
    join(cwd, 'config', `${value}.json`),
    join(PACKAGE_ROOT, 'config', `${value}.json`),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new ConfigError(
      source,
      `no profile ${quote(value)} in config/ (available: ${availableProfiles(cwd).join(', ') || 'none'})`,
    );
  }
  return found;
}

function availableProfiles(cwd: string): string[] {
  const names = new Set<string>();
  for (const dir of [join(cwd, 'config'), join(PACKAGE_ROOT, 'config')]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir))
      if (entry.endsWith('.json')) names.add(entry.slice(0, -5));
  }
  return [...names].sort();
}

/** Profile over the reference dialect, path by path. */
function mergeDialect(profile: Profile, file: string): Dialect {
  const overrides = profile.dialect ?? {};
  if (profile.docsUrl && overrides.docsUrl && profile.docsUrl !== overrides.docsUrl) {
    throw new ConfigError(`${file}: docsUrl`, 'differs from dialect.docsUrl; set only one');
  }
  const paths = { ...REFERENCE_DIALECT.paths };
  for (const [name, template] of Object.entries(overrides.paths ?? {})) {
    if (template !== undefined) paths[name as keyof Dialect['paths']] = template;
  }
  const docsUrl = profile.docsUrl ?? overrides.docsUrl;
  return {
    keyPrefix: overrides.keyPrefix ?? REFERENCE_DIALECT.keyPrefix,
    paths,
    orderCreatedStatus: overrides.orderCreatedStatus ?? REFERENCE_DIALECT.orderCreatedStatus,
    accountFields: {
      ...REFERENCE_DIALECT.accountFields,
      ...(definedOnly(overrides.accountFields) as Partial<Dialect['accountFields']>),
    },
    // Not in profile v1: the reference's until a profile can say otherwise.
    orderBody: REFERENCE_DIALECT.orderBody,
    totals: REFERENCE_DIALECT.totals,
    ...(docsUrl ? { docsUrl: docsUrl.replace(/\/+$/, '') } : {}),
  };
}

/** Drops the fields a profile left out, so they keep the reference's value. */
function definedOnly(
  value: Record<string, string | undefined> | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
}

/** The first zod issue as one line naming the field; secrets are pointed elsewhere. */
function profileError(error: z.ZodError, file: string): ConfigError {
  const issue = error.issues[0];
  const where = issue?.path.map(String).join('.') ?? '';
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const field = where ? `${where}.${key}` : key;
    if (/token|secret|password|key_?id|credential/i.test(key)) {
      return new ConfigError(
        `${file}: ${field}`,
        'secrets do not belong in a profile; use the environment (CONTROL_TOKEN, PARTNER_SECRET_KEY)',
      );
    }
    return new ConfigError(`${file}: ${field}`, 'unknown setting');
  }
  return new ConfigError(`${file}: ${where || '(top level)'}`, issue?.message ?? 'is invalid');
}

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
