import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ADDRESS_FIELDS,
  type BodyShape,
  type Dialect,
  type DialectPathName,
  DOCUMENT_PATH_PREFIXES,
  DOCUMENT_PATHS,
  type DocumentPathName,
  isDocumentPath,
  METHOD_NOT_SHOWN,
  OPERATION_PATHS,
  type OperationName,
  pathTemplate,
  REFERENCE_DIALECT,
} from './model.js';

/**
 * The server's own reader of a target profile (docs/profiles.md): what it
 * needs is `dialect` (and the top-level `docsUrl`); the suite's own settings
 * (`target`, `controlUrl`, `description`, …) are not the server's business
 * and are ignored. Inside `dialect` every field is optional and unknown
 * fields are refused, as the suite does.
 */
export class ProfileError extends Error {
  override name = 'ProfileError';
  /** One line per problem: `dialect.paths.order: must …`. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

const pointer = z.string().regex(/^(\/[^/\s]+)+$/, 'must be a JSON pointer such as "/livemode"');
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL');
const status = z.number().int().min(200).max(299);
const name = z.string().min(1).max(100);

/** A money format's members, for every place and for one. */
const moneyFormat = {
  format: z.enum(['object', 'cents', 'decimal']),
  amount: pointer,
  currency: pointer,
};

function placeholders(template: string): string {
  return [...template.matchAll(/\{(\w+)\}/g)]
    .map((match) => match[1])
    .sort()
    .join();
}

/** A dialect path keeps the start the document fixes for it (§4, §6): the prefix itself or below it. */
function keepsPrefix(path: DialectPathName, template: string): boolean {
  const prefix = DOCUMENT_PATH_PREFIXES[path];
  return (
    prefix === undefined ||
    template === prefix ||
    template.startsWith(`${prefix}/`) ||
    template.startsWith(`${prefix}?`)
  );
}

const pathNames = Object.keys(REFERENCE_DIALECT.paths) as DialectPathName[];
const PathsSchema = z.strictObject({
  ...Object.fromEntries(
    pathNames.map((path) => [
      path,
      z
        .string()
        .regex(
          /^\/[^\s?#]*(\?[^\s#]+)?$/,
          'must be a path starting with "/", optionally with a query',
        )
        .refine(
          (template) => placeholders(template) === placeholders(REFERENCE_DIALECT.paths[path]),
          `must hold exactly the placeholders of ${REFERENCE_DIALECT.paths[path]}`,
        )
        .refine(
          (template) => keepsPrefix(path, template),
          `must be ${DOCUMENT_PATH_PREFIXES[path]} or below it (the API document fixes that start)`,
        )
        .optional(),
    ]),
  ),
  // The document's own paths: older profiles set them; read, and ignored (ignoredFields).
  ...Object.fromEntries(
    (Object.keys(DOCUMENT_PATHS) as DocumentPathName[]).map((path) => [
      path,
      z.string().optional(),
    ]),
  ),
});

const BodySchema = z
  .strictObject({
    items: pointer,
    sku: pointer,
    quantity: pointer,
    address: z.strictObject(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, pointer]))).partial(),
  })
  .partial();

const operationNames = Object.keys(REFERENCE_DIALECT.operations) as OperationName[];
const OperationsSchema = z.strictObject(
  Object.fromEntries(
    operationNames.map((op) => [
      op,
      z
        .strictObject({ method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), status })
        .partial()
        .optional(),
    ]),
  ),
);

const DialectSchema = z
  .strictObject({
    keyPrefix: z
      .string()
      .regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2 to 16 lower-case letters or digits'),
    docsUrl: httpUrl,
    paths: PathsSchema,
    orderCreatedStatus: status,
    accountFields: z
      .strictObject({
        livemode: pointer,
        billingMethod: pointer,
        scopes: pointer,
        maxOrderValue: pointer,
        maxOrdersPerDay: pointer,
      })
      .partial(),
    orderBody: BodySchema,
    totals: z.strictObject({ order: pointer, quote: pointer }).partial(),
    operations: OperationsSchema,
    quoteBody: BodySchema,
    webhookEndpointBody: z.strictObject({ url: pointer, events: pointer.nullable() }).partial(),
    eventKinds: z.strictObject({ orderCreated: name, orderCancelled: name }).partial(),
    answers: z
      .strictObject({
        order: z
          .strictObject({
            id: pointer,
            status: pointer,
            lines: pointer,
            lineSku: pointer,
            lineQuantity: pointer,
          })
          .partial(),
        quote: z.strictObject({ id: pointer }).partial(),
        product: z
          .strictObject({
            sku: pointer,
            unitPrice: pointer,
            minQuantity: pointer,
            shipsByFreight: pointer,
          })
          .partial(),
        webhookEndpoint: z.strictObject({ id: pointer }).partial(),
        event: z.strictObject({ id: pointer, type: pointer }).partial(),
      })
      .partial(),
    list: z
      .strictObject({
        items: pointer,
        hasMore: pointer.nullable(),
        nextCursor: pointer.nullable(),
        cursorParam: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a query parameter name'),
        limitParam: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a query parameter name'),
        // The reference pages at most 100 (contract §2); a dialect may allow fewer.
        maxLimit: z
          .number()
          .int()
          .min(1)
          .max(100, 'must be at most 100: the reference server pages at most 100'),
      })
      .partial(),
    money: z
      .strictObject({
        ...moneyFormat,
        totals: z.strictObject(moneyFormat).partial(),
        prices: z.strictObject(moneyFormat).partial(),
        maxOrderValue: z.strictObject(moneyFormat).partial(),
      })
      .partial(),
    orderStatuses: z
      .strictObject({ received: name, inProduction: name, shipped: name, cancelled: name })
      .partial(),
    errors: z
      .strictObject({
        member: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'must be a member name')
          .refine((member) => member !== 'detail', 'cannot be detail (the entry text is there)'),
        form: z.enum(['json-pointer', 'dot', 'bracket']),
      })
      .partial(),
  })
  .partial();

const ProfileSchema = z.looseObject({
  version: z.union([z.literal(1), z.literal(2)]).optional(),
  docsUrl: httpUrl.optional(),
  dialect: DialectSchema.optional(),
});

type DialectInput = z.output<typeof DialectSchema>;

/** A profile file's dialect; a ProfileError (one line per problem) when the file is not one. */
export function readProfileFile(path: string): Dialect {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ProfileError([`cannot be read${typeof code === 'string' ? ` (${code})` : ''}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProfileError([`is not JSON: ${(error as Error).message}`]);
  }
  return parseProfile(json);
}

/** A profile (parsed JSON) over the reference dialect; a ProfileError when it is not a valid one. */
export function parseProfile(json: unknown): Dialect {
  const parsed = ProfileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ProfileError(
      parsed.error.issues.map((issue) => {
        const at = issue.path.map(String).join('.');
        const message =
          issue.code === 'unrecognized_keys'
            ? `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
            : issue.message;
        return at === '' ? message : `${at}: ${message}`;
      }),
    );
  }
  const given = parsed.data.dialect ?? {};
  const problems: string[] = [];
  if (parsed.data.docsUrl && given.docsUrl && parsed.data.docsUrl !== given.docsUrl) {
    problems.push('docsUrl: differs from dialect.docsUrl; set only one');
  }
  const created = orderCreatedStatus(given);
  if (typeof created === 'string') problems.push(created);
  const dialect = merge(given, parsed.data.docsUrl ?? given.docsUrl, created);
  problems.push(...coherence(dialect));
  if (problems.length > 0) throw new ProfileError(problems);
  return dialect;
}

type Given<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/** The fields a profile gives, without those it leaves out. */
function defined<T extends object>(value: T | undefined): Given<T> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter(([, v]) => v !== undefined),
  ) as Given<T>;
}

function body(base: BodyShape, given: DialectInput['orderBody']): BodyShape {
  return {
    ...base,
    ...defined({ items: given?.items, sku: given?.sku, quantity: given?.quantity }),
    address: { ...base.address, ...defined(given?.address) },
  };
}

/** The format of every place over the reference's; a place only as far as the profile states it. */
function money(given: DialectInput['money']): Dialect['money'] {
  const { totals, prices, maxOrderValue, ...every } = given ?? {};
  const out: Dialect['money'] = { ...REFERENCE_DIALECT.money, ...defined(every) };
  for (const [place, stated] of [
    ['totals', totals],
    ['prices', prices],
    ['maxOrderValue', maxOrderValue],
  ] as const) {
    const members = defined(stated);
    if (Object.keys(members).length > 0) out[place] = members;
  }
  return out;
}

/**
 * The status of a first order creation, where a profile gives one: v1 says
 * `orderCreatedStatus`, v2 `operations.orderCreate.status`. They are one fact;
 * two different values are a problem (its line).
 */
function orderCreatedStatus(given: DialectInput): number | undefined | string {
  const v1 = given.orderCreatedStatus;
  const v2 = given.operations?.orderCreate?.status;
  if (v1 !== undefined && v2 !== undefined && v1 !== v2)
    return 'dialect.orderCreatedStatus: differs from dialect.operations.orderCreate.status';
  return v1 ?? v2;
}

function merge(
  given: DialectInput,
  docsUrl: string | undefined,
  created: number | string | undefined,
): Dialect {
  const ref = REFERENCE_DIALECT;
  const operations = { ...ref.operations };
  for (const op of operationNames) {
    const { method, ...rest } = given.operations?.[op] ?? {};
    operations[op] = {
      ...ref.operations[op],
      ...defined(rest),
      // A method the document fixes is ignored (ignoredFields).
      ...(method !== undefined && METHOD_NOT_SHOWN.has(op) ? { method } : {}),
    };
  }
  if (typeof created === 'number')
    operations.orderCreate = { ...operations.orderCreate, status: created };
  const orderBody = body(ref.orderBody, given.orderBody);
  const answers = given.answers ?? {};
  return {
    keyPrefix: given.keyPrefix ?? ref.keyPrefix,
    ...(docsUrl !== undefined ? { docsUrl: docsUrl.replace(/\/+$/, '') } : {}),
    paths: { ...ref.paths, ...dialectPaths(given.paths) },
    accountFields: { ...ref.accountFields, ...defined(given.accountFields) },
    orderBody,
    totals: { ...ref.totals, ...defined(given.totals) },
    operations,
    // The quote body is the order body unless the profile says otherwise.
    quoteBody: body(orderBody, given.quoteBody),
    webhookEndpointBody: { ...ref.webhookEndpointBody, ...defined(given.webhookEndpointBody) },
    eventKinds: { ...ref.eventKinds, ...defined(given.eventKinds) },
    answers: {
      order: { ...ref.answers.order, ...defined(answers.order) },
      quote: { ...ref.answers.quote, ...defined(answers.quote) },
      product: { ...ref.answers.product, ...defined(answers.product) },
      webhookEndpoint: { ...ref.answers.webhookEndpoint, ...defined(answers.webhookEndpoint) },
      event: { ...ref.answers.event, ...defined(answers.event) },
    },
    list: { ...ref.list, ...defined(given.list) },
    money: money(given.money),
    orderStatuses: { ...ref.orderStatuses, ...defined(given.orderStatuses) },
    errors: { ...ref.errors, ...defined(given.errors) },
  };
}

/** The paths a profile sets that are the dialect's; the document's are ignored (ignoredFields). */
function dialectPaths(given: DialectInput['paths']): Partial<Dialect['paths']> {
  return Object.fromEntries(
    Object.entries(defined(given)).filter(([name]) => !isDocumentPath(name)),
  ) as Partial<Dialect['paths']>;
}

/**
 * The fields of a profile that the API document fixes (§4): the paths of its
 * endpoint table and the methods it shows. Older profiles set them; the
 * server reads the profile all the same, speaks the document's values, and
 * says so once (one line per field, for its start-up warnings).
 */
export function ignoredFields(json: unknown): string[] {
  const parsed = ProfileSchema.safeParse(json);
  if (!parsed.success) return [];
  const given = parsed.data.dialect ?? {};
  const lines: string[] = [];
  for (const [name, value] of Object.entries(defined(given.paths)))
    if (isDocumentPath(name))
      lines.push(
        `dialect.paths.${name} (${JSON.stringify(value)}) is ignored: the API document fixes ${DOCUMENT_PATHS[name]}`,
      );
  for (const op of operationNames) {
    const method = given.operations?.[op]?.method;
    if (method !== undefined && !METHOD_NOT_SHOWN.has(op))
      lines.push(
        `dialect.operations.${op}.method (${method}) is ignored: the API document fixes ${REFERENCE_DIALECT.operations[op].method}`,
      );
  }
  return lines;
}

/** What the schema cannot see: settings that contradict each other. */
function coherence(dialect: Dialect): string[] {
  const problems: string[] = [];
  for (const op of operationNames) {
    if (dialect.operations[op].status === 204 && !ANSWERED_WITHOUT_BODY.has(op)) {
      problems.push(
        `dialect.operations.${op}.status: 204 answers with no body; only ${[...ANSWERED_WITHOUT_BODY].join(' and ')} may`,
      );
    }
  }
  const routes = new Map<string, OperationName>();
  for (const op of operationNames) {
    const key = `${dialect.operations[op].method} ${pathTemplate(dialect, OPERATION_PATHS[op]).replace(/\{\w+\}/g, '{}')}`;
    const other = routes.get(key);
    if (other !== undefined)
      problems.push(`dialect.operations.${op}: same method and path as ${other}`);
    routes.set(key, op);
  }
  for (const [section, shape] of [
    ['orderBody', dialect.orderBody],
    ['quoteBody', dialect.quoteBody],
  ] as const) {
    const top = [
      ['items', shape.items],
      ...ADDRESS_FIELDS.map((f) => [`address.${f}`, shape.address[f]] as const),
      ...(section === 'orderBody' ? [['external_id', '/external_id'] as const] : []),
    ] as const;
    problems.push(...overlaps(`dialect.${section}`, top));
    problems.push(
      ...overlaps(`dialect.${section}`, [
        ['sku', shape.sku],
        ['quantity', shape.quantity],
      ]),
    );
  }
  const distinct = (section: string, values: Record<string, string>) => {
    if (new Set(Object.values(values)).size !== Object.values(values).length)
      problems.push(`dialect.${section}: two names are the same`);
  };
  distinct('orderStatuses', dialect.orderStatuses);
  distinct('eventKinds', dialect.eventKinds);
  if (dialect.list.hasMore === null && dialect.list.nextCursor === null)
    problems.push(
      'dialect.list: hasMore and nextCursor are both null; a list must say whether more follows',
    );
  if (dialect.list.cursorParam === dialect.list.limitParam)
    problems.push('dialect.list: cursorParam and limitParam are the same');
  const { list, webhookEndpointBody: hook } = dialect;
  problems.push(
    ...overlaps('dialect.list', [
      ['items', list.items],
      ...(list.hasMore === null ? [] : [['hasMore', list.hasMore] as const]),
      ...(list.nextCursor === null ? [] : [['nextCursor', list.nextCursor] as const]),
    ]),
  );
  if (hook.events !== null) {
    problems.push(
      ...overlaps('dialect.webhookEndpointBody', [
        ['url', hook.url],
        ['events', hook.events],
      ]),
    );
  }
  return problems;
}

/** The operations whose answer nobody reads: only they may answer 204, with no body (docs/profiles.md). */
const ANSWERED_WITHOUT_BODY: ReadonlySet<OperationName> = new Set([
  'orderCancel',
  'webhookEndpointDelete',
]);

/** No two fields in one place, none inside another. */
function overlaps(section: string, fields: readonly (readonly [string, string])[]): string[] {
  const problems: string[] = [];
  for (const [i, [a, pa]] of fields.entries()) {
    for (const [b, pb] of fields.slice(i + 1)) {
      if (pa === pb || pa.startsWith(`${pb}/`) || pb.startsWith(`${pa}/`)) {
        problems.push(`${section}: ${a} (${pa}) and ${b} (${pb}) would overwrite each other`);
      }
    }
  }
  return problems;
}
