/**
 * Reading an OpenAPI 3.0/3.1 document (JSON) for `--draft-profile-from`:
 * its operations below the API base, local `$ref`s, request and answer
 * schemas. What is drafted from it is lib/probe/openapi-draft.ts.
 */

/** Why a document cannot be drafted from, in one line. */
export class OpenApiDraftError extends Error {
  override name = 'OpenApiDraftError';
}

export type Json = Record<string, unknown>;

const API_BASE = '/api/on-demand/v1';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface FoundOperation {
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

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Local `$ref`s (`#/components/…`) only; another file's is not followed. */
export class Resolver {
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
export function operationsOf(doc: Json, resolver: Resolver): FoundOperation[] {
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

export function requestSchema(
  operation: Json,
  resolver: Resolver,
  media = 'application/json',
): unknown {
  const body = resolver.deref(operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const content = body.content[media];
  return isObject(content) ? resolver.deref(content.schema) : undefined;
}

/** The schemas of an operation's answers (JSON; 2xx unless said). */
export function answerSchemas(operation: Json, resolver: Resolver, codes = /^2\d\d$/): unknown[] {
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
