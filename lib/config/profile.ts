import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import { type Dialect, type OrderBodyShape, REFERENCE_DIALECT } from '../target/dialect.js';
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
    orderBody: orderBodyShape(overrides.orderBody, file),
    totals: {
      ...REFERENCE_DIALECT.totals,
      ...(definedOnly(overrides.totals) as Partial<Dialect['totals']>),
    },
    // Profile v2 sections not yet read from the profile keep the reference's.
    operations: {
      ...REFERENCE_DIALECT.operations,
      orderCreate: {
        ...REFERENCE_DIALECT.operations.orderCreate,
        status: overrides.orderCreatedStatus ?? REFERENCE_DIALECT.orderCreatedStatus,
      },
    },
    quoteBody: orderBodyShape(overrides.orderBody, file),
    webhookEndpointBody: REFERENCE_DIALECT.webhookEndpointBody,
    eventKinds: REFERENCE_DIALECT.eventKinds,
    answers: REFERENCE_DIALECT.answers,
    list: REFERENCE_DIALECT.list,
    money: REFERENCE_DIALECT.money,
    orderStatuses: REFERENCE_DIALECT.orderStatuses,
    errors: REFERENCE_DIALECT.errors,
    ...(docsUrl ? { docsUrl: docsUrl.replace(/\/+$/, '') } : {}),
  };
}

/** The profile's order body over the reference's, refused when two fields would land in one place. */
function orderBodyShape(
  given: NonNullable<Profile['dialect']>['orderBody'],
  file: string,
): OrderBodyShape {
  const reference = REFERENCE_DIALECT.orderBody;
  const shape: OrderBodyShape = {
    items: given?.items ?? reference.items,
    sku: given?.sku ?? reference.sku,
    quantity: given?.quantity ?? reference.quantity,
    address: {
      ...reference.address,
      ...(definedOnly(given?.address) as Partial<OrderBodyShape['address']>),
    },
  };
  const inBody: [string, string][] = [
    ['items', shape.items],
    ...Object.entries(shape.address).map(([field, at]): [string, string] => [
      `address.${field}`,
      at,
    ]),
  ];
  // The document fixes external_id at the top of the body (section 4).
  for (const [field, at] of inBody) {
    if (at === '/external_id' || at.startsWith('/external_id/')) {
      throw new ConfigError(
        `${file}: dialect.orderBody.${field}`,
        'cannot be /external_id (the API document puts external_id there)',
      );
    }
  }
  clash(inBody, file);
  clash(
    [
      ['sku', shape.sku],
      ['quantity', shape.quantity],
    ],
    file,
  );
  return shape;
}

/** Two pointers clash when one is the other or lies inside it: one value would overwrite the other. */
function clash(fields: [string, string][], file: string): void {
  for (const [i, [field, at]] of fields.entries()) {
    for (const [other, there] of fields.slice(i + 1)) {
      if (at === there || at.startsWith(`${there}/`) || there.startsWith(`${at}/`)) {
        throw new ConfigError(
          `${file}: dialect.orderBody.${field}`,
          `${at} clashes with orderBody.${other} (${there}): each needs a place of its own`,
        );
      }
    }
  }
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

/**
 * One line per problem, each naming its field (never a raw ZodError); the
 * error's setting is the first field. Secrets are pointed elsewhere.
 */
function profileError(error: z.ZodError, file: string): ConfigError {
  const problems = error.issues.flatMap((issue): [string, string][] => {
    const where = issue.path.map(String).join('.');
    if (issue.code !== 'unrecognized_keys') {
      return [[where || '(top level)', issue.message]];
    }
    return issue.keys.map((key): [string, string] => [
      where ? `${where}.${key}` : key,
      /token|secret|password|key_?id|credential/i.test(key)
        ? 'secrets do not belong in a profile; use the environment (CONTROL_TOKEN, PARTNER_SECRET_KEY)'
        : 'unknown setting',
    ]);
  });
  const [first = ['(top level)', 'is invalid'], ...rest] = problems;
  const more = rest.map(([field, message]) => `\n${file}: ${field}: ${message}`).join('');
  return new ConfigError(`${file}: ${first[0]}`, `${first[1]}${more}`);
}

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
