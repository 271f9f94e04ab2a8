import {
  type Dialect,
  METHOD_NOT_SHOWN,
  MONEY_PLACES,
  type MoneyFormat,
  type MoneyPlace,
  type OperationName,
  REFERENCE_DIALECT,
} from '../target/dialect.js';
import type { Draft } from './draft-profile.js';
import { notInferred } from './draft-profile.js';

/**
 * `--draft-profile-from FILE`: a dialect drafted from the target's own
 * OpenAPI 3.0/3.1 document (JSON), before any request. What it reads, in
 * order of trust (docs/openapi.md):
 * 1. `x-dialect-operation` on an operation and `x-dialect-field` on a
 *    schema or parameter name the profile field they show (this suite's
 *    `--openapi` writes them; an implementer may add them to their own);
 * 2. the document's own structure: the OAuth 2.0 token URL, the scopes an
 *    operation needs, its method, parameters, body and the schemas of its
 *    answers (a list envelope's array, boolean and nullable cursor; money as
 *    an integer, a decimal string or an object), enums named by
 *    `x-enum-varnames`, a token pattern (the key prefix), the problem
 *    `type` (docs_url); an operation without the mark is known by an
 *    `operationId` that is the profile's name of it, or by a path and
 *    method the API document fixes (§4).
 * A field neither settles keeps the starting profile's value (the reference
 * dialect's) and is named by a TODO: never a silent guess.
 */
export class OpenApiDraftError extends Error {
  override name = 'OpenApiDraftError';
}

type Json = Record<string, unknown>;
type PathName = keyof Dialect['paths'];

const API_BASE = '/api/on-demand/v1';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The placeholder each operation's path must hold (docs/profiles.md). */
const PLACEHOLDER: Partial<Record<OperationName, string>> = {
  catalogProduct: 'sku',
  quoteRead: 'id',
  orderRead: 'id',
  orderByExternalId: 'external_id',
  orderCancel: 'id',
  shipments: 'id',
  invoice: 'id',
  webhookEndpointRead: 'id',
  webhookEndpointDelete: 'id',
  eventRead: 'id',
};

/** Which path each operation has (lib/target/dialect.ts names both). */
const PATH_OF: Record<OperationName, PathName> = {
  token: 'token',
  account: 'account',
  catalogProducts: 'catalogProducts',
  catalogProduct: 'catalogProduct',
  quoteCreate: 'quotes',
  quoteRead: 'quote',
  orderList: 'orders',
  orderCreate: 'orders',
  orderRead: 'order',
  orderByExternalId: 'orderByExternalId',
  orderCancel: 'orderCancel',
  shipments: 'shipments',
  invoice: 'invoice',
  webhookEndpointCreate: 'webhookEndpoints',
  webhookEndpointList: 'webhookEndpoints',
  webhookEndpointRead: 'webhookEndpoint',
  webhookEndpointDelete: 'webhookEndpoint',
  eventList: 'events',
  eventRead: 'event',
};

interface FoundOperation {
  method: string;
  /** The path below the API base, placeholders as the document names them. */
  path: string;
  operation: Json;
  parameters: Json[];
}

/** Reads and checks the document; an OpenApiDraftError says why not in one line. */
export function readOpenApi(text: string): Json {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new OpenApiDraftError(
      `is not JSON (${(error as Error).message}); a YAML document can be turned into JSON first, e.g. \`npx @redocly/cli bundle api.yaml -o api.json\``,
    );
  }
  if (!isObject(doc)) throw new OpenApiDraftError('is not an OpenAPI document (not an object)');
  const version = doc.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version))
    throw new OpenApiDraftError(
      `is not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`,
    );
  if (!isObject(doc.paths)) throw new OpenApiDraftError('has no paths');
  return doc;
}

/**
 * The draft of `document`, over `start` (the run's profile: the reference
 * dialect unless `--profile` says otherwise). `requests` is 0: nothing is sent.
 */
export function draftFromOpenApi(document: Json, start: Dialect): Draft {
  const d = structuredClone(start);
  // The reference's order and quote bodies are one object: the draft may set each apart.
  d.quoteBody = structuredClone(d.quoteBody);
  const draft: Draft = {
    dialect: d,
    inferred: [],
    todos: [],
    answered: [],
    missing: [],
    requests: 0,
  };
  const got = (...fields: string[]) => {
    for (const f of fields) if (!draft.inferred.includes(f)) draft.inferred.push(f);
  };
  const resolver = new Resolver(document);
  const found = operationsOf(document, resolver);
  const byOp = classify(found, resolver, draft.todos);

  // Paths, methods and success statuses.
  for (const [op, entry] of byOp) {
    const template = templateOf(op, entry, draft.todos);
    if (template !== undefined) {
      d.paths[PATH_OF[op]] = template;
      got(`paths.${PATH_OF[op]}`);
      if (!draft.answered.includes(PATH_OF[op])) draft.answered.push(PATH_OF[op]);
    }
    const method =
      entry.found.method.toUpperCase() as Dialect['operations'][OperationName]['method'];
    if (METHOD_NOT_SHOWN.includes(op)) {
      d.operations[op].method = method;
      got(`operations.${op}.method`);
    } else if (method !== REFERENCE_DIALECT.operations[op].method)
      draft.todos.push(
        `dialect.operations.${op}.method: the document gives ${method} ${entry.found.path}, but the API document fixes ${REFERENCE_DIALECT.operations[op].method}`,
      );
    const status = successStatus(op, entry.found.operation, resolver);
    if (status !== undefined) {
      d.operations[op].status = status;
      got(`operations.${op}.status`);
      if (op === 'orderCreate') got('orderCreatedStatus');
    }
  }

  // Fields: what the schemas of bodies and answers name, each where it sits.
  const fields = new FieldFinder(resolver);
  for (const [op, entry] of byOp) {
    const body = requestSchema(entry.found.operation, resolver);
    if (body) fields.walk(body, '', op);
    for (const schema of answerSchemas(entry.found.operation, resolver, /^[245]\d\d$/))
      fields.walk(schema, '', op);
    for (const parameter of entry.found.parameters) {
      const schema = resolver.deref(parameter.schema);
      const name = isObject(schema) ? schema['x-dialect-field'] : undefined;
      if (typeof name === 'string' && typeof parameter.name === 'string')
        fields.record(name, parameter.name, schema as Json, op);
    }
  }
  applyFields(d, fields, got, draft.todos);
  listShape(d, byOp, resolver, fields, got);
  prefixAndDocs(d, resolver, byOp, got);

  for (const op of Object.keys(PATH_OF) as OperationName[]) {
    if (!byOp.has(op)) draft.missing.push(PATH_OF[op]);
  }
  const left = notInferred(d, draft.inferred);
  if (left.length > 0)
    draft.todos.push(
      `not told by the document, kept as written (the starting profile's, else the reference dialect's): ${left.map((f) => `dialect.${f}`).join(', ')}`,
    );
  return draft;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Local `$ref`s (`#/components/…`) only; another file's is not followed. */
class Resolver {
  readonly #doc: Json;
  constructor(doc: Json) {
    this.#doc = doc;
  }
  deref(value: unknown, depth = 0): unknown {
    if (!isObject(value) || typeof value.$ref !== 'string' || depth > 32) return value;
    const ref = value.$ref;
    if (!ref.startsWith('#/')) return value;
    let node: unknown = this.#doc;
    for (const raw of ref.slice(2).split('/')) {
      const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      node = isObject(node) ? node[token] : undefined;
    }
    const { $ref: _, ...siblings } = value;
    const target = this.deref(node, depth + 1);
    return isObject(target) ? { ...target, ...siblings } : target;
  }
}

/**
 * Every operation of the document, its paths below the API base: a document
 * whose server URL ends in `/api/on-demand/v1` writes them so; one whose
 * paths start with the base has it taken off.
 */
function operationsOf(doc: Json, resolver: Resolver): FoundOperation[] {
  const out: FoundOperation[] = [];
  for (const [rawPath, rawItem] of Object.entries(doc.paths as Json)) {
    const item = resolver.deref(rawItem);
    if (!isObject(item)) continue;
    const path = rawPath.startsWith(`${API_BASE}/`) ? rawPath.slice(API_BASE.length) : rawPath;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = resolver.deref(item[method]);
      if (!isObject(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const parameters = [...shared, ...own]
        .map((p) => resolver.deref(p))
        .filter(isObject)
        .filter((p, i, all) => all.findIndex((o) => o.name === p.name && o.in === p.in) === i);
      out.push({ method, path, operation, parameters });
    }
  }
  return out;
}

interface Classified {
  found: FoundOperation;
  /** Query parameters only this operation of a shared method and path takes. */
  own: string[];
  /** Query parameters the other operations of that method and path take. */
  others: string[];
}

const OPERATION_NAMES = Object.keys(PATH_OF) as OperationName[];

/** Which operation of the profile each operation of the document is. */
function classify(
  found: readonly FoundOperation[],
  resolver: Resolver,
  todos: string[],
): Map<OperationName, Classified> {
  const out = new Map<OperationName, Classified>();
  const put = (op: OperationName, entry: Classified) => {
    const had = out.get(op);
    if (had) {
      todos.push(
        `dialect.paths.${PATH_OF[op]}: two operations of the document read as ${op} (${had.found.method.toUpperCase()} ${had.found.path} and ${entry.found.method.toUpperCase()} ${entry.found.path}); the first is kept`,
      );
      return;
    }
    out.set(op, entry);
  };
  for (const f of found) {
    const marked = f.operation['x-dialect-operation'];
    const names = (Array.isArray(marked) ? marked : [marked]).filter(
      (n): n is OperationName =>
        typeof n === 'string' && OPERATION_NAMES.includes(n as OperationName),
    );
    if (names.length > 1) {
      // One operation of the document serves several of the profile: each selects by its own query parameter.
      const selectors = f.parameters.filter((p) => p.in === 'query' && p['x-dialect-operation']);
      for (const op of names) {
        const own = selectors
          .filter((p) => p['x-dialect-operation'] === op)
          .map((p) => String(p.name));
        const others = selectors
          .filter((p) => p['x-dialect-operation'] !== op)
          .map((p) => String(p.name));
        put(op, { found: f, own, others });
      }
      continue;
    }
    const op = names[0] ?? guessOperation(f, resolver);
    if (op) put(op, { found: f, own: [], others: [] });
  }
  return out;
}

/** Without `x-dialect-operation`: the operation's id, or the document's fixed path of §4 at its method. */
function guessOperation(f: FoundOperation, resolver: Resolver): OperationName | undefined {
  const id = typeof f.operation.operationId === 'string' ? f.operation.operationId : '';
  const named = OPERATION_NAMES.find((n) => n.toLowerCase() === id.toLowerCase());
  if (named) return named;
  const method = f.method.toUpperCase();
  const fixed = OPERATION_NAMES.filter(
    (op) =>
      REFERENCE_DIALECT.operations[op].method === method &&
      REFERENCE_DIALECT.paths[PATH_OF[op]].replace(/\{\w+\}/g, '{}') ===
        f.path.replace(/\{\w+\}/g, '{}'),
  );
  if (fixed.length === 1) return fixed[0];
  // The token request: a form with grant_type.
  const body = requestSchema(f.operation, resolver, 'application/x-www-form-urlencoded');
  if (isObject(body) && isObject(body.properties) && 'grant_type' in body.properties)
    return 'token';
  return undefined;
}

/** The dialect path template of one operation: its path and the query parameters it must carry. */
function templateOf(op: OperationName, entry: Classified, todos: string[]): string | undefined {
  const { found } = entry;
  const query: string[] = [];
  const variables: string[] = [...found.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  for (const p of found.parameters) {
    if (p.in !== 'query' || typeof p.name !== 'string') continue;
    const mine = entry.own.includes(p.name);
    if (entry.others.includes(p.name)) continue;
    if (p.required !== true && !mine) continue;
    const schema = isObject(p.schema) ? p.schema : {};
    const single =
      Array.isArray(schema.enum) && schema.enum.length === 1
        ? schema.enum[0]
        : 'const' in schema
          ? schema.const
          : undefined;
    if (typeof single === 'string')
      query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(single)}`);
    else {
      query.push(`${encodeURIComponent(p.name)}={${p.name}}`);
      variables.push(p.name);
    }
  }
  let template = `${found.path}${query.length ? `?${query.join('&')}` : ''}`;
  const wanted = PLACEHOLDER[op];
  if (wanted === undefined) {
    if (variables.length === 0) return template;
    todos.push(
      `dialect.paths.${PATH_OF[op]}: ${found.method.toUpperCase()} ${template} holds ${variables.map((v) => `{${v}}`).join(', ')}, where the profile takes no placeholder`,
    );
    return undefined;
  }
  if (variables.length !== 1) {
    todos.push(
      `dialect.paths.${PATH_OF[op]}: ${found.method.toUpperCase()} ${template} holds ${variables.length} placeholders, where the profile takes {${wanted}} alone`,
    );
    return undefined;
  }
  template = template.replace(`{${variables[0]}}`, `{${wanted}}`);
  return template;
}

/** The 2xx of a success: a first creation's where the document also shows a replay. */
function successStatus(op: OperationName, operation: Json, resolver: Resolver): number | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses)
    .filter((c) => /^2\d\d$/.test(c))
    .map(Number)
    .sort((a, b) => a - b);
  if (codes.length <= 1 || op !== 'orderCreate') return codes[0];
  // A replay is 200 with Idempotent-Replayed (§4): the creation is the other one.
  const creation = codes.find((code) => {
    const response = resolver.deref(responses[String(code)]);
    const headers = isObject(response) && isObject(response.headers) ? response.headers : {};
    const replay = Object.keys(headers).some((h) => h.toLowerCase() === 'idempotent-replayed');
    return !(code === 200 && replay);
  });
  return creation ?? codes[0];
}

function requestSchema(operation: Json, resolver: Resolver, media = 'application/json'): unknown {
  const body = resolver.deref(operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const content = body.content[media];
  return isObject(content) ? resolver.deref(content.schema) : undefined;
}

/** The schemas of an operation's answers (JSON; 2xx unless said). */
function answerSchemas(operation: Json, resolver: Resolver, codes = /^2\d\d$/): unknown[] {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const out: unknown[] = [];
  for (const [code, raw] of Object.entries(responses)) {
    if (!codes.test(code)) continue;
    const response = resolver.deref(raw);
    if (!isObject(response) || !isObject(response.content)) continue;
    for (const [media, content] of Object.entries(response.content)) {
      if (!/json/.test(media) || !isObject(content)) continue;
      out.push(resolver.deref(content.schema));
    }
  }
  return out;
}

interface FieldSeen {
  pointer: string;
  schema: Json;
  /** The operation whose body, answer or parameter shows it. */
  from: OperationName;
}

/**
 * The operations whose bodies and answers say where a family of fields is
 * (an order shows in an event too, under `data`, but its own place is the
 * order's answer). Families not named here are read from any operation.
 */
const FAMILY_SOURCES: readonly [string, readonly OperationName[]][] = [
  ['orderBody.', ['orderCreate']],
  ['quoteBody.', ['quoteCreate']],
  ['webhookEndpointBody.', ['webhookEndpointCreate']],
  ['answers.order.', ['orderRead', 'orderCreate', 'orderByExternalId', 'orderCancel']],
  ['totals.order', ['orderRead', 'orderCreate', 'orderByExternalId', 'orderCancel']],
  ['answers.quote.', ['quoteRead', 'quoteCreate']],
  ['totals.quote', ['quoteRead', 'quoteCreate']],
  ['answers.product.', ['catalogProduct', 'catalogProducts']],
  ['accountFields.', ['account']],
  ['answers.webhookEndpoint.', ['webhookEndpointRead', 'webhookEndpointCreate']],
  ['answers.event.', ['eventRead']],
  ['list.', ['orderList', 'catalogProducts', 'shipments', 'webhookEndpointList', 'eventList']],
];

/**
 * Walks schemas and records every `x-dialect-field` where it sits: a JSON
 * pointer from the object it belongs to (a line's fields from the line, a
 * list's from its envelope, a money object's members from the money).
 */
class FieldFinder {
  readonly seen = new Map<string, FieldSeen[]>();
  readonly #resolver: Resolver;
  constructor(resolver: Resolver) {
    this.#resolver = resolver;
  }

  record(name: string, pointer: string, schema: Json, from: OperationName): void {
    const sources = FAMILY_SOURCES.find(([prefix]) => name.startsWith(prefix))?.[1];
    if (sources && !sources.includes(from)) return;
    const list = this.seen.get(name) ?? [];
    if (!list.some((s) => s.pointer === pointer)) list.push({ pointer, schema, from });
    this.seen.set(name, list);
  }

  walk(
    raw: unknown,
    pointer: string,
    from: OperationName,
    depth = 0,
    trail = new Set<unknown>(),
  ): void {
    if (depth > 24 || trail.has(raw)) return;
    // A reference with a field of its own (`{$ref: Money, x-dialect-field: totals.order}`): the
    // field is where the reference stands, and the target schema is walked for its own fields.
    if (isObject(raw) && typeof raw.$ref === 'string') {
      const own = raw['x-dialect-field'];
      if (typeof own === 'string') this.record(own, pointer, raw, from);
      const { $ref, ...rest } = raw;
      const target = this.#resolver.deref({ $ref });
      this.walk(target, pointer, from, depth + 1, new Set(trail).add(raw));
      if (Object.keys(rest).some((k) => k !== 'x-dialect-field'))
        this.walk(rest, pointer, from, depth + 1, new Set(trail).add(raw));
      return;
    }
    const schema = raw;
    if (!isObject(schema)) return;
    const inner = new Set(trail).add(raw);
    const name = schema['x-dialect-field'];
    if (typeof name === 'string') this.record(name, pointer, schema, from);
    // A money object's members are pointers from the money.
    const base = typeof name === 'string' && /^money\.\w+$/.test(name) ? '' : pointer;
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list)) for (const s of list) this.walk(s, base, from, depth + 1, inner);
    }
    if (isObject(schema.properties)) {
      for (const [member, sub] of Object.entries(schema.properties))
        this.walk(
          sub,
          `${base}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`,
          from,
          depth + 1,
          inner,
        );
    }
    // The members of an array's entries are pointers from the entry.
    if (schema.items !== undefined) this.walk(schema.items, '', from, depth + 1, inner);
  }

  /** The one place a field was seen, or why there is none. */
  one(name: string): FieldSeen | undefined {
    const list = this.seen.get(name);
    return list && list.length === 1 ? list[0] : undefined;
  }
}

/** Where the leaves of a dialect section are: profile field name → setter. */
function applyFields(
  d: Dialect,
  fields: FieldFinder,
  got: (...f: string[]) => void,
  todos: string[],
): void {
  const pointerFields: [string, (p: string) => void][] = [];
  const add = (name: string, set: (p: string) => void) => pointerFields.push([name, set]);
  for (const section of ['orderBody', 'quoteBody'] as const) {
    add(`${section}.items`, (p) => {
      d[section].items = p;
    });
    add(`${section}.sku`, (p) => {
      d[section].sku = p;
    });
    add(`${section}.quantity`, (p) => {
      d[section].quantity = p;
    });
    for (const f of Object.keys(d[section].address) as (keyof Dialect['orderBody']['address'])[])
      add(`${section}.address.${f}`, (p) => {
        d[section].address[f] = p;
      });
  }
  for (const f of Object.keys(d.accountFields) as (keyof Dialect['accountFields'])[])
    add(`accountFields.${f}`, (p) => {
      d.accountFields[f] = p;
    });
  add('totals.order', (p) => {
    d.totals.order = p;
  });
  add('totals.quote', (p) => {
    d.totals.quote = p;
  });
  const answers = d.answers as unknown as Record<string, Record<string, string>>;
  for (const [object, members] of Object.entries(answers))
    for (const member of Object.keys(members))
      add(`answers.${object}.${member}`, (p) => {
        members[member] = p;
      });
  add('webhookEndpointBody.url', (p) => {
    d.webhookEndpointBody.url = p;
  });
  for (const [name, set] of pointerFields) {
    const list = fields.seen.get(name) ?? [];
    if (list.length === 1 && list[0]) {
      set(list[0].pointer);
      got(name);
    } else if (list.length > 1)
      todos.push(
        `dialect.${name}: the document shows it at ${list.map((s) => s.pointer).join(' and ')}; write the one the target uses`,
      );
  }
  // A quote body the document does not show apart keeps the order body's places (docs/profiles.md).
  if (!fields.seen.has('quoteBody.items') && fields.seen.has('orderBody.items')) {
    d.quoteBody = structuredClone(d.orderBody);
    got('quoteBody');
  }
  // The webhook endpoint body: its list of kinds, or none.
  const events = fields.one('webhookEndpointBody.events');
  if (events) d.webhookEndpointBody.events = events.pointer;
  else if (fields.seen.has('webhookEndpointBody.url')) d.webhookEndpointBody.events = null;
  if (events || fields.seen.has('webhookEndpointBody.url')) got('webhookEndpointBody.events');

  // Money, place by place: the schema's type says the format.
  const formats: Partial<Record<MoneyPlace, MoneyFormat>> = {};
  for (const place of MONEY_PLACES) {
    // Money shows at many places of a kind: the format is the schema's, wherever it stands.
    const seen = fields.seen.get(`money.${place}`)?.[0];
    if (!seen) continue;
    const format = moneyFormatOf(seen.schema);
    if (format === undefined) {
      todos.push(
        `dialect.money.${place}: the document's schema is neither an integer, a decimal string nor an object`,
      );
      continue;
    }
    const amount = fields.one(`money.${place}.amount`)?.pointer ?? REFERENCE_DIALECT.money.amount;
    const currency =
      fields.one(`money.${place}.currency`)?.pointer ?? REFERENCE_DIALECT.money.currency;
    formats[place] = { format, amount, currency };
    got(`money.${place}`);
  }
  const every = formats.totals ?? formats.prices ?? formats.maxOrderValue;
  if (every) {
    d.money = { ...every };
    for (const place of MONEY_PLACES) {
      const own = formats[place];
      if (
        own &&
        (own.format !== every.format ||
          own.amount !== every.amount ||
          own.currency !== every.currency)
      )
        d.money[place] = own;
    }
    got('money.format', 'money.amount', 'money.currency');
  }

  // Names: enums the document names with x-enum-varnames.
  const statuses = fields.one('answers.order.status');
  if (statuses) {
    const names = enumNames(statuses.schema);
    for (const key of Object.keys(d.orderStatuses) as (keyof Dialect['orderStatuses'])[]) {
      const value = names.get(key);
      if (value !== undefined) {
        d.orderStatuses[key] = value;
        got(`orderStatuses.${key}`);
      }
    }
  }
  const kinds = fields.seen.get('eventKinds')?.[0] ?? fields.one('answers.event.type');
  if (kinds) {
    const names = enumNames(kinds.schema);
    for (const key of Object.keys(d.eventKinds) as (keyof Dialect['eventKinds'])[]) {
      const value = names.get(key);
      if (value !== undefined) {
        d.eventKinds[key] = value;
        got(`eventKinds.${key}`);
      }
    }
  }
  // errors[]: the member holding the pointer, its form from its example.
  const member = fields.one('errors.member');
  if (member) {
    const name = member.pointer.split('/').at(-1);
    if (name) {
      d.errors.member = name;
      got('errors.member');
    }
    const example = Array.isArray(member.schema.examples)
      ? member.schema.examples[0]
      : member.schema.example;
    if (typeof example === 'string' && example !== '') {
      d.errors.form = example.startsWith('/')
        ? 'json-pointer'
        : /\[\d+\]/.test(example)
          ? 'bracket'
          : 'dot';
      got('errors.form');
    }
  }
}

function moneyFormatOf(schema: Json): MoneyFormat['format'] | undefined {
  const type = Array.isArray(schema.type)
    ? schema.type.filter((t) => t !== 'null')[0]
    : schema.type;
  if (type === 'integer') return 'cents';
  if (type === 'string') return 'decimal';
  if (type === 'object' || isObject(schema.properties)) return 'object';
  return undefined;
}

/** An enum's values by their names (`x-enum-varnames`, as code generators read it). */
function enumNames(schema: Json): Map<string, string> {
  const values = Array.isArray(schema.enum) ? schema.enum : [];
  const names = Array.isArray(schema['x-enum-varnames']) ? schema['x-enum-varnames'] : [];
  const out = new Map<string, string>();
  values.forEach((value, i) => {
    const name = names[i];
    if (typeof value === 'string' && typeof name === 'string') out.set(name, value);
  });
  return out;
}

/** The operations answered with a list, in the order their answer is trusted for the envelope. */
const LISTS: readonly OperationName[] = [
  'orderList',
  'catalogProducts',
  'webhookEndpointList',
  'eventList',
  'shipments',
];

/**
 * The list envelope and its paging: where `x-dialect-field` says, else from
 * the first list answer the document shows, by its shape: its one array
 * (the items), its one boolean (more pages follow), its one string that may
 * be null (the next cursor); its one integer query parameter (the page
 * size, up to its `maximum`) and its one other optional one (the cursor).
 */
function listShape(
  d: Dialect,
  byOp: Map<OperationName, Classified>,
  resolver: Resolver,
  fields: FieldFinder,
  got: (...f: string[]) => void,
): void {
  const marked = fields.one('list.items');
  const list = LISTS.map((op) => byOp.get(op)).find((entry) => entry !== undefined);
  const envelope = list && !marked ? envelopeOf(list.found.operation, resolver) : undefined;
  const items = marked?.pointer ?? envelope?.items;
  if (items !== undefined) {
    d.list.items = items;
    d.list.hasMore = marked
      ? (fields.one('list.hasMore')?.pointer ?? null)
      : (envelope?.hasMore ?? null);
    d.list.nextCursor = marked
      ? (fields.one('list.nextCursor')?.pointer ?? null)
      : (envelope?.nextCursor ?? null);
    if (d.list.hasMore !== null || d.list.nextCursor !== null)
      got('list.items', 'list.hasMore', 'list.nextCursor');
    else got('list.items');
  }
  const optional = (list?.found.parameters ?? []).filter(
    (p) =>
      p.in === 'query' &&
      p.required !== true &&
      typeof p.name === 'string' &&
      !list?.own.includes(String(p.name)) &&
      !list?.others.includes(String(p.name)),
  );
  const typeOf = (p: Json) => {
    const schema = resolver.deref(p.schema);
    return isObject(schema) ? schema : {};
  };
  const integers = optional.filter((p) => typeOf(p).type === 'integer');
  const strings = optional.filter((p) => typeOf(p).type === 'string' && !('enum' in typeOf(p)));
  const cursor = fields.one('list.cursorParam') ?? one(strings, typeOf);
  const limit = fields.one('list.limitParam') ?? one(integers, typeOf);
  if (cursor) {
    d.list.cursorParam = cursor.pointer;
    got('list.cursorParam');
  }
  if (limit) {
    d.list.limitParam = limit.pointer;
    got('list.limitParam');
    if (typeof limit.schema.maximum === 'number') {
      d.list.maxLimit = limit.schema.maximum;
      got('list.maxLimit');
    }
  }
}

/** The one parameter of a kind, as a field seen at its name. */
function one(params: readonly Json[], schemaOf: (p: Json) => Json): FieldSeen | undefined {
  const only = params.length === 1 ? params[0] : undefined;
  return only
    ? { pointer: String(only.name), schema: schemaOf(only), from: 'orderList' }
    : undefined;
}

/** A list answer's envelope by its shape, where each part is the only one of its kind. */
function envelopeOf(
  operation: Json,
  resolver: Resolver,
): { items: string; hasMore: string | null; nextCursor: string | null } | undefined {
  const arrays: string[] = [];
  const booleans: string[] = [];
  const cursors: string[] = [];
  const visit = (raw: unknown, at: string, depth: number) => {
    const schema = resolver.deref(raw);
    if (!isObject(schema) || depth > 4 || !isObject(schema.properties)) return;
    for (const [name, sub] of Object.entries(schema.properties)) {
      const member = resolver.deref(sub);
      if (!isObject(member)) continue;
      const pointer = `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const types = Array.isArray(member.type) ? member.type : [member.type];
      if (types.includes('array')) arrays.push(pointer);
      else if (types.includes('boolean')) booleans.push(pointer);
      else if (types.includes('string') && (types.includes('null') || member.nullable === true))
        cursors.push(pointer);
      else if (types.includes('object') || isObject(member.properties))
        visit(member, pointer, depth + 1);
    }
  };
  const schema = answerSchemas(operation, resolver)[0];
  visit(schema, '', 0);
  if (arrays.length !== 1 || booleans.length > 1 || cursors.length > 1) return undefined;
  const hasMore = booleans[0] ?? null;
  const nextCursor = cursors[0] ?? null;
  if (hasMore === null && nextCursor === null) return undefined;
  return { items: arrays[0] as string, hasMore, nextCursor };
}

/** The key prefix from the token's pattern, `{docs_url}` from the problem `type`'s. */
function prefixAndDocs(
  d: Dialect,
  resolver: Resolver,
  byOp: Map<OperationName, Classified>,
  got: (...f: string[]) => void,
): void {
  const token = byOp.get('token');
  if (token) {
    for (const schema of answerSchemas(token.found.operation, resolver)) {
      const s = resolver.deref(schema);
      const access =
        isObject(s) && isObject(s.properties)
          ? resolver.deref(s.properties.access_token)
          : undefined;
      const pattern = isObject(access) && typeof access.pattern === 'string' ? access.pattern : '';
      const prefix = /^\^?([a-z][a-z0-9]{1,15})_at_/.exec(pattern)?.[1];
      if (prefix) {
        d.keyPrefix = prefix;
        got('keyPrefix');
      }
    }
  }
  for (const entry of byOp.values()) {
    const responses = isObject(entry.found.operation.responses)
      ? entry.found.operation.responses
      : {};
    for (const raw of Object.values(responses)) {
      const response = resolver.deref(raw);
      if (!isObject(response) || !isObject(response.content)) continue;
      for (const content of Object.values(response.content)) {
        const type = problemType(isObject(content) ? content.schema : undefined, resolver);
        const example = type && Array.isArray(type.examples) ? type.examples[0] : undefined;
        const docs =
          typeof example === 'string'
            ? /^(https?:\/\/\S+?)\/errors#error-/.exec(example)?.[1]
            : undefined;
        if (docs) {
          d.docsUrl = docs;
          got('docsUrl');
          return;
        }
      }
    }
  }
}

function problemType(raw: unknown, resolver: Resolver, depth = 0): Json | undefined {
  const schema = resolver.deref(raw);
  if (!isObject(schema) || depth > 8) return undefined;
  if (isObject(schema.properties)) {
    const type = resolver.deref(schema.properties.type);
    if (isObject(type) && (type.examples || type.pattern)) return type;
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const s of list) {
        const found = problemType(s, resolver, depth + 1);
        if (found) return found;
      }
  }
  return undefined;
}
