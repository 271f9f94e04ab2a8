import { API_BASE, IDEMPOTENCY_KEY_MAX } from '../config/api.js';
import {
  type Dialect,
  OPERATION_PATHS,
  type OperationName,
  pathTemplate,
} from '../dialect/model.js';
import { API_CODES, type ApiCode } from '../problems/codes.js';
import type { Schema } from './leaves.js';
import { EVERY_CALL, OPERATION_SPECS, type OperationSpec } from './operations.js';
import { componentSchemas, field, ref } from './schemas.js';
import { AUTH_SENTENCE, CODE_SENTENCES, INFO_SENTENCE, SCOPE_SENTENCES } from './sentences.js';

/** Where the reference serves the OpenAPI document of the dialect it speaks (outside the API base). */
export const OPENAPI_PATH = '/openapi.json';

/**
 * The dialect a document is written for. Structural: the server's own model
 * (server/dialect/model.ts) and any object of the same shape, such as the
 * suite's reading of a profile, can be given.
 */
/** The dialect a document describes: the reference's model of a profile (server/dialect/model.ts). */
export type OpenApiDialect = Dialect;

export interface OpenApiOptions {
  /** `{docs_url}` of problem `type` URIs, when known (the dialect's own, else this). */
  docsUrl?: string;
  /** Words for `info.title`: whose dialect this is. */
  title?: string;
}

/**
 * The OpenAPI 3.1 description of a dialect: every operation of the API
 * document (§4) at the dialect's method and path, its parameters and body,
 * every status the document gives it with its body (problem+json with the
 * codes §7 lists), the headers (`Idempotency-Key`, `Idempotent-Replayed`,
 * `Retry-After`), the security schemes (OAuth 2.0 client credentials and
 * §5's scopes, Basic credentials at the token request), the money format of
 * each place, and the document's sentence in each description. Members
 * carry `x-dialect-field` (the profile field they show) and operations
 * `x-dialect-operation`, so a profile can be drafted back from it.
 */
export function openApiDocument(dialect: OpenApiDialect, options: OpenApiOptions = {}): Schema {
  const docsUrl = dialect.docsUrl ?? options.docsUrl;
  const paths: Record<string, Record<string, Schema>> = {};
  for (const group of routeGroups(dialect)) {
    paths[group.path] = {
      ...paths[group.path],
      [group.method.toLowerCase()]: operationObject(dialect, group),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `Partner Ordering API${options.title ? ` (${options.title})` : ''}`,
      version: '1',
      description: INFO_SENTENCE,
    },
    servers: [
      {
        url: API_BASE,
        description: 'All paths are relative to `{base_url}/api/on-demand/v1` (§4, §9).',
      },
    ],
    tags: [
      { name: 'Authentication', description: AUTH_SENTENCE },
      { name: 'Account', description: 'The partner account (§2).' },
      { name: 'Catalog', description: 'The catalog of products (§1, §4).' },
      { name: 'Quotes', description: 'Price quotes (§1, §4).' },
      { name: 'Orders', description: 'Orders, their shipments and invoices (§1, §3, §4).' },
      { name: 'Webhooks', description: 'Webhook endpoints and events (§6).' },
    ],
    security: [{ oauth2: [] }],
    paths,
    components: {
      schemas: componentSchemas(dialect as Dialect, docsUrl),
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: AUTH_SENTENCE,
          flows: {
            clientCredentials: {
              tokenUrl: `${API_BASE}${pathTemplate(dialect, 'token')}`,
              scopes: SCOPE_SENTENCES,
            },
          },
        },
        keyCredentials: {
          type: 'http',
          scheme: 'basic',
          description:
            'The token request only: `Authorization: Basic <base64(AccessKeyID:SecretKey)>` (§4). The Secret Key is sent only there (§5.4).',
        },
      },
      headers: {
        RequestId: {
          description: "The id of the request, the same as a problem's `request_id` (§2).",
          schema: { type: 'string' },
        },
      },
    },
  };
}

/** One OpenAPI operation: the dialect's operations at one method and path (more than one when only their queries differ). */
interface RouteGroup {
  method: string;
  path: string;
  members: { op: OperationName; query: QueryPart[] }[];
}

interface QueryPart {
  name: string;
  placeholder?: string;
  literal?: string;
}

function splitTemplate(template: string): { path: string; query: QueryPart[] } {
  const question = template.indexOf('?');
  const path = question === -1 ? template : template.slice(0, question);
  const query = question === -1 ? '' : template.slice(question + 1);
  const parts = query === '' ? [] : query.split('&');
  return {
    path,
    query: parts.map((pair) => {
      const [name = '', value = ''] = pair.split('=', 2);
      const placeholder = /^\{(\w+)\}$/.exec(value)?.[1];
      return placeholder !== undefined
        ? { name: decodeURIComponent(name), placeholder }
        : { name: decodeURIComponent(name), literal: decodeURIComponent(value) };
    }),
  };
}

function routeGroups(dialect: OpenApiDialect): RouteGroup[] {
  const groups = new Map<string, RouteGroup>();
  for (const op of Object.keys(OPERATION_SPECS) as OperationName[]) {
    const { path, query } = splitTemplate(pathTemplate(dialect, OPERATION_PATHS[op]));
    const method = dialect.operations[op].method;
    const key = `${method} ${path}`;
    let group = groups.get(key);
    if (!group) {
      group = { method, path, members: [] };
      groups.set(key, group);
    }
    group.members.push({ op, query });
  }
  return [...groups.values()];
}

const json = (schema: Schema) => ({ 'application/json': { schema } });

function operationObject(dialect: OpenApiDialect, group: RouteGroup): Schema {
  const ops = group.members.map((m) => m.op);
  const specs = ops.map((op) => OPERATION_SPECS[op]);
  const first = specs[0] as OperationSpec;
  const merged = ops.length > 1;
  const operation: Schema = {
    operationId: ops.join('_'),
    summary: specs.map((s) => s.summary).join(', or '),
    description: merged
      ? `${specs.map((s, i) => `${s.description} (${selectorWords(group.members[i]?.query ?? [], group)})`).join('\n\n')}`
      : first.description,
    tags: [first.tag],
    'x-dialect-operation': merged ? ops : ops[0],
    security: security(first.scope),
  };
  const parameters = parametersOf(dialect, group);
  if (parameters.length) operation.parameters = parameters;
  const bodyOf = specs.find((s) => s.body !== undefined)?.body;
  if (bodyOf !== undefined) {
    operation.requestBody = {
      required: true,
      content:
        bodyOf === 'TokenRequest'
          ? { 'application/x-www-form-urlencoded': { schema: ref(bodyOf) } }
          : json(ref(bodyOf)),
    };
  }
  operation.responses = responsesOf(dialect, group);
  return operation;
}

function selectorWords(query: readonly QueryPart[], group: RouteGroup): string {
  const own = query.filter(
    (q) => !group.members.every((m) => m.query.some((o) => o.name === q.name)),
  );
  return own.length === 0
    ? 'without ' +
        group.members
          .flatMap((m) => m.query)
          .map((q) => `\`${q.name}\``)
          .filter((v, i, all) => all.indexOf(v) === i)
          .join(', ')
    : `with ${own.map((q) => `\`${q.name}\``).join(', ')}`;
}

function security(scope: OperationSpec['scope']): Schema[] {
  if (scope === 'basic') return [{ keyCredentials: [] }];
  return [{ oauth2: scope === null ? [] : [scope] }];
}

function parametersOf(dialect: OpenApiDialect, group: RouteGroup): Schema[] {
  const parameters: Schema[] = [];
  for (const match of group.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({
      name: match[1],
      in: 'path',
      required: true,
      description: placeholderWords(match[1] ?? ''),
      schema: { type: 'string', minLength: 1 },
    });
  }
  const seen = new Set<string>();
  for (const member of group.members) {
    for (const part of member.query) {
      if (seen.has(part.name)) continue;
      seen.add(part.name);
      const everywhere = group.members.every((m) => m.query.some((q) => q.name === part.name));
      parameters.push({
        name: part.name,
        in: 'query',
        required: everywhere,
        ...(everywhere ? {} : { 'x-dialect-operation': member.op }),
        description:
          part.literal !== undefined
            ? `Always \`${part.literal}\` (the dialect's path carries it).`
            : `${placeholderWords(part.placeholder ?? '')}${everywhere ? '' : ` Given: ${OPERATION_SPECS[member.op].summary.toLowerCase()}.`}`,
        schema:
          part.literal !== undefined
            ? { type: 'string', enum: [part.literal] }
            : { type: 'string', minLength: 1 },
      });
    }
  }
  const list = group.members.find((m) => OPERATION_SPECS[m.op].list);
  if (list) {
    const l = dialect.list;
    parameters.push(
      {
        name: l.limitParam,
        in: 'query',
        required: false,
        description: `Page size, 1 to ${l.maxLimit} (default 20).`,
        schema: { type: 'integer', minimum: 1, maximum: l.maxLimit, ...field('list.limitParam') },
      },
      {
        name: l.cursorParam,
        in: 'query',
        required: false,
        description:
          l.nextCursor === null
            ? 'The id of the last entry of the previous page: the next page starts after it.'
            : 'The cursor of the next page, as the previous page gave it.',
        schema: { type: 'string', minLength: 1, ...field('list.cursorParam') },
      },
    );
    if (list.op === 'eventList') {
      parameters.push({
        name: 'type',
        in: 'query',
        required: false,
        description: 'Only events of this kind.',
        schema: ref('EventKind'),
      });
    }
  }
  if (group.members.some((m) => m.op === 'orderCreate')) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description:
        'Each new order is sent with a unique `Idempotency-Key`, up to 255 characters. If it is missing, 400 `idempotency_key_required` (§4).',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
    });
  }
  return parameters;
}

function placeholderWords(name: string): string {
  if (name === 'external_id') return 'The `external_id` the order was placed with (§4).';
  if (name === 'sku') return 'The SKU of a product.';
  return 'The identifier `{id}` (§2).';
}

const REQUEST_ID = { 'Request-Id': { $ref: '#/components/headers/RequestId' } };

/** Codes a request of these operations may be refused with, by status. */
function errorCodes(specs: readonly OperationSpec[]): Map<number, ApiCode[]> {
  const codes = new Set<ApiCode>();
  for (const spec of specs) {
    if (spec.scope === 'basic') {
      for (const code of TOKEN_CODES) codes.add(code);
    } else {
      for (const code of EVERY_CALL) codes.add(code);
      if (spec.scope !== null) codes.add('insufficient_scope');
      if (spec.write) codes.add('read_only');
    }
    for (const code of spec.codes) codes.add(code);
  }
  const byStatus = new Map<number, ApiCode[]>();
  for (const code of Object.keys(API_CODES) as ApiCode[]) {
    if (!codes.has(code)) continue;
    const status = API_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/**
 * What a token request may be refused with (§4, §5, §7): no or bad Basic
 * credentials (401), a scope beyond the key's (403), the key's gates (§5.9,
 * §5.10), a body not a form (415), a bad form or a Secret Key in it (422),
 * the token rate limit (§5.5). A suspended account still gets tokens: §5.11
 * refuses it new orders only.
 */
const TOKEN_CODES: readonly ApiCode[] = [
  'credentials_in_url',
  'unauthorized',
  'insufficient_scope',
  'ip_not_allowed',
  'api_not_enabled',
  'sandbox_not_enabled',
  'unsupported_media_type',
  'validation_failed',
  'rate_limited',
  'internal_error',
  'api_unavailable',
];

function responsesOf(dialect: OpenApiDialect, group: RouteGroup): Schema {
  const responses: Record<string, Schema> = {};
  const specs = group.members.map((m) => OPERATION_SPECS[m.op]);
  for (const { op } of group.members) {
    const spec = OPERATION_SPECS[op];
    const status = dialect.operations[op].status;
    const success = successResponse(dialect, op, spec, status);
    const key = String(status);
    const other = responses[key];
    responses[key] = other ? union(other, success) : success;
    if (op === 'orderCreate') {
      const replay = replayResponse(status === 200);
      responses['200'] =
        status === 200 ? { ...success, ...replay } : { ...replay, content: json(ref('Order')) };
    }
  }
  for (const [status, codes] of errorCodes(specs)) {
    responses[String(status)] = problemResponse(status, codes, specs[0]?.scope === 'basic');
  }
  // By status, as the characters order them ('200' before 'default'): not `localeCompare`, whose
  // collation maps ICU's locale data into the process.
  return Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

function successResponse(
  dialect: OpenApiDialect,
  op: OperationName,
  spec: OperationSpec,
  status: number,
): Schema {
  const headers: Record<string, Schema> = { ...REQUEST_ID };
  if (op === 'orderCreate' || op === 'quoteCreate' || op === 'webhookEndpointCreate') {
    headers.Location = {
      description: 'Where the created object is read.',
      schema: { type: 'string' },
    };
  }
  if (op === 'token') {
    headers['Cache-Control'] = {
      description: 'Tokens are not to be cached (RFC 6749 §5.1).',
      schema: { type: 'string' },
    };
  }
  const description = `${spec.summary}: success${status === 204 ? ', with no body' : ''}.`;
  if (status === 204) return { description, headers };
  const schema: Schema =
    spec.answer !== undefined
      ? ref(spec.answer)
      : {
          type: 'object',
          description: 'An empty object: nothing is read from it.',
          maxProperties: 0,
        };
  const response: Schema = { description, headers, content: json(schema) };
  const link = LINKS[op];
  if (link) {
    response.links = {
      [link.name]: {
        operationId: operationIdOf(dialect, link.read),
        parameters: { [link.param]: `$response.body#${link.pointer(dialect)}` },
        description: 'Read the object created.',
      },
    };
  }
  return response;
}

/** The created object's id, as the read operation takes it. */
const LINKS: Partial<
  Record<
    OperationName,
    { name: string; read: OperationName; param: string; pointer: (d: OpenApiDialect) => string }
  >
> = {
  orderCreate: {
    name: 'readOrder',
    read: 'orderRead',
    param: 'id',
    pointer: (d) => d.answers.order.id,
  },
  quoteCreate: {
    name: 'readQuote',
    read: 'quoteRead',
    param: 'id',
    pointer: (d) => d.answers.quote.id,
  },
  webhookEndpointCreate: {
    name: 'readWebhookEndpoint',
    read: 'webhookEndpointRead',
    param: 'id',
    pointer: (d) => d.answers.webhookEndpoint.id,
  },
};

function operationIdOf(dialect: OpenApiDialect, op: OperationName): string {
  return (
    routeGroups(dialect)
      .find((g) => g.members.some((m) => m.op === op))
      ?.members.map((m) => m.op)
      .join('_') ?? op
  );
}

function replayResponse(createdIs200: boolean): Schema {
  return {
    description: createdIs200
      ? 'The order: placed now, or, when the same request with the same key was sent again and the order was already placed, the existing order with header `Idempotent-Replayed: true`, not a second order (§4 idempotency rule 2).'
      : 'When the same request with the same key is sent again and the order was already placed, the response is 200 with header `Idempotent-Replayed: true` and the existing order, not a second order (§4 idempotency rule 2).',
    headers: {
      ...REQUEST_ID,
      'Idempotent-Replayed': {
        description: '`true` on a replay (§4 idempotency rule 2).',
        required: !createdIs200,
        schema: { type: 'string', enum: ['true'] },
      },
    },
  };
}

/** Two successes of one status (operations that share a method and path): either body. */
function union(a: Schema, b: Schema): Schema {
  const schemaOf = (r: Schema) =>
    (r.content as Record<string, { schema: Schema }> | undefined)?.['application/json']?.schema;
  const sa = schemaOf(a);
  const sb = schemaOf(b);
  return {
    ...a,
    description: `${a.description as string} Or: ${b.description as string}`,
    ...(sa && sb ? { content: json({ anyOf: [sa, sb] }) } : {}),
  };
}

function problemResponse(status: number, codes: readonly ApiCode[], tokenRequest: boolean): Schema {
  const schema: Schema = {
    allOf: [
      ref('Problem'),
      {
        type: 'object',
        properties: { status: { const: status }, code: { enum: [...codes] } },
      },
    ],
  };
  const headers: Record<string, Schema> = { ...REQUEST_ID };
  if (status === 429) {
    headers['Retry-After'] = {
      description: 'Seconds to wait before retrying (§7, §8).',
      required: true,
      schema: { type: 'integer', minimum: 0 },
    };
  }
  if (status === 401) {
    headers['WWW-Authenticate'] = {
      description: 'The challenge (RFC 9110 §11.6.1): Bearer, or Basic at the token request.',
      schema: { type: 'string' },
    };
  }
  return {
    description: codes.map((code) => `\`${code}\`: ${CODE_SENTENCES[code]}`).join('\n\n'),
    headers,
    content: {
      'application/problem+json': { schema },
      // RFC 6749 §5.2: OAuth clients that accept only application/json get the problem as that.
      ...(tokenRequest ? { 'application/json': { schema } } : {}),
    },
  };
}
