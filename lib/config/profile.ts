import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import {
  type AnswerPointers,
  type Dialect,
  type DialectPathName,
  DOCUMENT_PATHS,
  type ErrorPointers,
  isDocumentPath,
  type ListEnvelope,
  METHOD_NOT_SHOWN,
  type MoneyFormat,
  type MoneyFormats,
  type OperationName,
  type OrderBodyShape,
  REFERENCE_DIALECT,
  type WebhookEndpointBodyShape,
} from '../target/dialect.js';
import { ConfigError, quote } from './config-error.js';
import { PACKAGE_ROOT, sourcePath } from './package-root.js';
import { type Profile, ProfileSchema } from './profile-schema.js';

export interface LoadedProfile {
  /** As the user named it (`reference`, `./acme.json`), or `reference dialect` when none. */
  name: string;
  /** The file, relative to the working directory when inside it. */
  file?: string;
  dialect: Dialect;
  target?: string;
  controlUrl?: string;
  /**
   * One line when the profile sets fields the API document fixes (the paths
   * of its endpoint table, the methods it shows): they are loaded, ignored,
   * and said once, as a notice of the run.
   */
  notice?: string;
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
  const notice = ignoredNotice(parsed.data, display(file, cwd));
  return {
    name: value,
    file: display(file, cwd),
    dialect: mergeDialect(parsed.data, display(file, cwd)),
    ...(notice ? { notice } : {}),
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
  if (value.endsWith('.schema')) {
    throw new ConfigError(
      source,
      `${quote(value)} is the JSON Schema profiles are checked against, not a profile (available: ${availableProfiles(cwd).join(', ') || 'none'})`,
    );
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
    // config/profile.schema.json is the JSON Schema profiles are written against, not a profile.
    for (const entry of readdirSync(dir))
      if (entry.endsWith('.json') && !entry.endsWith('.schema.json')) names.add(entry.slice(0, -5));
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
    // The document's own paths are ignored (ignoredNotice says so).
    if (template !== undefined && !isDocumentPath(name)) paths[name as DialectPathName] = template;
  }
  const docsUrl = profile.docsUrl ?? overrides.docsUrl;
  const operations = operationsOf(overrides, file);
  const orderBody = bodyShape(REFERENCE_DIALECT.orderBody, overrides.orderBody, 'orderBody', file);
  return {
    keyPrefix: overrides.keyPrefix ?? REFERENCE_DIALECT.keyPrefix,
    paths,
    accountFields: {
      ...REFERENCE_DIALECT.accountFields,
      ...(definedOnly(overrides.accountFields) as Partial<Dialect['accountFields']>),
    },
    orderBody,
    totals: {
      ...REFERENCE_DIALECT.totals,
      ...(definedOnly(overrides.totals) as Partial<Dialect['totals']>),
    },
    operations,
    // A quote carries the lines and address of an order: unless told, where the order body puts them.
    quoteBody: bodyShape(orderBody, overrides.quoteBody, 'quoteBody', file),
    webhookEndpointBody: webhookEndpointBodyOf(overrides.webhookEndpointBody, file),
    eventKinds: distinctNames(
      { ...REFERENCE_DIALECT.eventKinds, ...definedOnly(overrides.eventKinds) },
      'eventKinds',
      file,
    ),
    answers: answersOf(overrides.answers),
    list: listOf(overrides.list, file),
    money: moneyOf(overrides.money),
    orderStatuses: distinctNames(
      { ...REFERENCE_DIALECT.orderStatuses, ...definedOnly(overrides.orderStatuses) },
      'orderStatuses',
      file,
    ),
    errors: { ...REFERENCE_DIALECT.errors, ...definedOnly(overrides.errors) } as ErrorPointers,
    ...(docsUrl ? { docsUrl: docsUrl.replace(/\/+$/, '') } : {}),
  };
}

type Overrides = NonNullable<Profile['dialect']>;

/**
 * The fields of a profile that the API document fixes, so no profile sets
 * them: the paths of its endpoint table and the methods it shows (section 4).
 * Profiles written before they were taken out of the dialect still load; the
 * run says once that they are ignored, and the checks hold the target to the
 * document's values, so a target that serves them otherwise fails the checks.
 */
function ignoredFields(profile: Profile): { field: string; given: string; fixed: string }[] {
  const found: { field: string; given: string; fixed: string }[] = [];
  for (const [name, given] of Object.entries(profile.dialect?.paths ?? {})) {
    if (given !== undefined && isDocumentPath(name))
      found.push({ field: `dialect.paths.${name}`, given, fixed: DOCUMENT_PATHS[name] });
  }
  for (const [name, given] of Object.entries(profile.dialect?.operations ?? {})) {
    const operation = name as OperationName;
    if (given?.method === undefined || METHOD_NOT_SHOWN.includes(operation)) continue;
    found.push({
      field: `dialect.operations.${name}.method`,
      given: given.method,
      fixed: REFERENCE_DIALECT.operations[operation].method,
    });
  }
  return found;
}

/** The run's one line about the fields ignoredFields finds; undefined when there are none. */
function ignoredNotice(profile: Profile, file: string): string | undefined {
  const fields = ignoredFields(profile);
  if (fields.length === 0) return undefined;
  const moved = fields.filter((f) => f.given !== f.fixed);
  const where = moved.map((f) => `${f.field} ${JSON.stringify(f.given)} for ${f.fixed}`);
  return `${file}: ${fields.map((f) => f.field).join(', ')} ${fields.length === 1 ? 'is' : 'are'} ignored: the API document fixes ${fields.length === 1 ? 'it' : 'them'} (section 4) and every check uses its value${
    moved.length
      ? `, so a target that answers only where the profile says fails those checks (${where.join('; ')})`
      : ''
  }; remove ${fields.length === 1 ? 'it' : 'them'} from the profile`;
}

/**
 * Each operation over the reference's. `orderCreatedStatus` (v1) and
 * `operations.orderCreate.status` (v2) are one fact: either sets both, and
 * two different values are refused.
 */
function operationsOf(overrides: Overrides, file: string): Dialect['operations'] {
  const operations = { ...REFERENCE_DIALECT.operations };
  for (const [name, given] of Object.entries(overrides.operations ?? {})) {
    const operation = name as OperationName;
    const { method, ...rest } = given ?? {};
    operations[operation] = {
      ...operations[operation],
      ...(definedOnly(rest) as Partial<Dialect['operations'][OperationName]>),
      // A method the document fixes is ignored (ignoredNotice says so).
      ...(method !== undefined && METHOD_NOT_SHOWN.includes(operation) ? { method } : {}),
    };
  }
  const v1 = overrides.orderCreatedStatus;
  const v2 = overrides.operations?.orderCreate?.status;
  if (v1 !== undefined && v2 !== undefined && v1 !== v2) {
    throw new ConfigError(
      `${file}: dialect.operations.orderCreate.status`,
      `${v2} differs from dialect.orderCreatedStatus (${v1}); they are one fact: set only one`,
    );
  }
  if (v1 !== undefined) operations.orderCreate = { ...operations.orderCreate, status: v1 };
  for (const [name, { status }] of Object.entries(operations)) {
    if (status === 204 && !ANSWERED_WITHOUT_BODY.has(name as OperationName)) {
      throw new ConfigError(
        `${file}: dialect.operations.${name}.status`,
        `204 answers with no body, and the checks read this operation's answer; only ${[...ANSWERED_WITHOUT_BODY].join(' and ')} may answer 204`,
      );
    }
  }
  return operations;
}

/** The operations whose answer the checks never read: only they may be a 204 with no body. */
const ANSWERED_WITHOUT_BODY: ReadonlySet<OperationName> = new Set([
  'orderCancel',
  'webhookEndpointDelete',
]);

/**
 * The money format over the reference's, and each place the profile states
 * (kept only as given: a place left out follows the format of every place).
 */
function moneyOf(given: Overrides['money']): MoneyFormats {
  const { totals, prices, maxOrderValue, ...every } = given ?? {};
  const money: MoneyFormats = {
    ...REFERENCE_DIALECT.money,
    ...(definedOnly(every) as Partial<MoneyFormat>),
  };
  for (const [place, stated] of [
    ['totals', totals],
    ['prices', prices],
    ['maxOrderValue', maxOrderValue],
  ] as const) {
    const members = definedOnly(stated) as Partial<MoneyFormat>;
    if (Object.keys(members).length > 0) money[place] = members;
  }
  return money;
}

/** Every answer pointer over the reference's, object by object. */
function answersOf(given: Overrides['answers']): AnswerPointers {
  const reference = REFERENCE_DIALECT.answers;
  return {
    order: { ...reference.order, ...definedOnly(given?.order) },
    quote: { ...reference.quote, ...definedOnly(given?.quote) },
    product: { ...reference.product, ...definedOnly(given?.product) },
    webhookEndpoint: { ...reference.webhookEndpoint, ...definedOnly(given?.webhookEndpoint) },
    event: { ...reference.event, ...definedOnly(given?.event) },
  };
}

/** The webhook endpoint body: the URL and the event list (if any) each in a place of its own. */
function webhookEndpointBodyOf(
  given: Overrides['webhookEndpointBody'],
  file: string,
): WebhookEndpointBodyShape {
  const shape: WebhookEndpointBodyShape = {
    url: given?.url ?? REFERENCE_DIALECT.webhookEndpointBody.url,
    events:
      given?.events === undefined ? REFERENCE_DIALECT.webhookEndpointBody.events : given.events,
  };
  if (shape.events !== null) {
    clash(
      [
        ['url', shape.url],
        ['events', shape.events],
      ],
      'webhookEndpointBody',
      file,
    );
  }
  return shape;
}

/** The list envelope: without hasMore and nextCursor the suite could not tell the last page. */
function listOf(given: Overrides['list'], file: string): ListEnvelope {
  const list: ListEnvelope = {
    ...REFERENCE_DIALECT.list,
    ...(Object.fromEntries(
      Object.entries(given ?? {}).filter(([, value]) => value !== undefined),
    ) as Partial<ListEnvelope>),
  };
  if (list.hasMore === null && list.nextCursor === null) {
    throw new ConfigError(
      `${file}: dialect.list`,
      'hasMore and nextCursor are both null: keep at least one, or the suite cannot tell the last page',
    );
  }
  if (list.cursorParam === list.limitParam) {
    throw new ConfigError(
      `${file}: dialect.list.cursorParam`,
      `is the same parameter as limitParam (${list.limitParam}): each needs its own`,
    );
  }
  const inBody: [string, string][] = [['items', list.items]];
  if (list.hasMore !== null) inBody.push(['hasMore', list.hasMore]);
  if (list.nextCursor !== null) inBody.push(['nextCursor', list.nextCursor]);
  clash(inBody, 'list', file);
  return list;
}

/** Names the suite tells apart by value must differ (two states under one name would be one state). */
function distinctNames<T extends Record<string, string>>(
  names: T,
  section: string,
  file: string,
): T {
  const seen = new Map<string, string>();
  for (const [field, value] of Object.entries(names)) {
    const other = seen.get(value);
    if (other !== undefined) {
      throw new ConfigError(
        `${file}: dialect.${section}.${field}`,
        `"${value}" is also ${section}.${other}: each needs a name of its own`,
      );
    }
    seen.set(value, field);
  }
  return names;
}

/**
 * A body shape (order or quote) over `base`, refused when two fields would
 * land in one place or one lands on `external_id`.
 */
function bodyShape(
  base: OrderBodyShape,
  given: Overrides['orderBody'],
  section: 'orderBody' | 'quoteBody',
  file: string,
): OrderBodyShape {
  const shape: OrderBodyShape = {
    items: given?.items ?? base.items,
    sku: given?.sku ?? base.sku,
    quantity: given?.quantity ?? base.quantity,
    address: {
      ...base.address,
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
  // The document fixes external_id at the top of the order body (section 4); a quote has none.
  for (const [field, at] of section === 'orderBody' ? inBody : []) {
    if (at === '/external_id' || at.startsWith('/external_id/')) {
      throw new ConfigError(
        `${file}: dialect.${section}.${field}`,
        'cannot be /external_id (the API document puts external_id there)',
      );
    }
  }
  clash(inBody, section, file);
  clash(
    [
      ['sku', shape.sku],
      ['quantity', shape.quantity],
    ],
    section,
    file,
  );
  return shape;
}

/** Two pointers clash when one is the other or lies inside it: one value would overwrite the other. */
function clash(fields: [string, string][], section: string, file: string): void {
  for (const [i, [field, at]] of fields.entries()) {
    for (const [other, there] of fields.slice(i + 1)) {
      if (at === there || at.startsWith(`${there}/`) || there.startsWith(`${at}/`)) {
        throw new ConfigError(
          `${file}: dialect.${section}.${field}`,
          `${at} clashes with ${section}.${other} (${there}): each needs a place of its own`,
        );
      }
    }
  }
}

/** Drops the fields a profile left out, so they keep the reference's value. */
function definedOnly<V>(value: Record<string, V | undefined> | undefined): Record<string, V> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter((entry): entry is [string, V] => entry[1] !== undefined),
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

function display(path: string, cwd: string): string {
  const file = sourcePath(path);
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
