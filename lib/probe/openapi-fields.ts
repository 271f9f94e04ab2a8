import {
  type Dialect,
  MONEY_PLACES,
  type MoneyFormat,
  type MoneyPlace,
  type OperationName,
  REFERENCE_DIALECT,
} from '../target/dialect.js';
import type { Classified } from './openapi-operations.js';
import { answerSchemas, isObject, type Json, type Resolver } from './openapi-read.js';

export interface FieldSeen {
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
export class FieldFinder {
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
export function applyFields(
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
export function listShape(
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
export function prefixAndDocs(
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
