import {
  type OperationName,
  type PathName,
  pathTemplate,
  REFERENCE_DIALECT,
} from '../target/dialect.js';
import {
  type FoundOperation,
  isObject,
  type Json,
  type Resolver,
  requestSchema,
} from './openapi-read.js';

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
export const PATH_OF: Record<OperationName, PathName> = {
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

export interface Classified {
  found: FoundOperation;
  /** Query parameters only this operation of a shared method and path takes. */
  own: string[];
  /** Query parameters the other operations of that method and path take. */
  others: string[];
}

const OPERATION_NAMES = Object.keys(PATH_OF) as OperationName[];

/** Which operation of the profile each operation of the document is. */
export function classify(
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
      pathTemplate(REFERENCE_DIALECT, PATH_OF[op]).replace(/\{\w+\}/g, '{}') ===
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
export function templateOf(
  op: OperationName,
  entry: Classified,
  todos: string[],
): string | undefined {
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
export function successStatus(
  op: OperationName,
  operation: Json,
  resolver: Resolver,
): number | undefined {
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
