import {
  type Dialect,
  DOCUMENT_PATHS,
  type DocumentPathName,
  isDocumentPath,
  METHOD_NOT_SHOWN,
  type OperationName,
  REFERENCE_DIALECT,
} from '../target/dialect.js';
import { type Draft, notInferred } from './draft/draft.js';
import { applyFields, FieldFinder, listShape, prefixAndDocs } from './openapi-fields.js';
import { classify, PATH_OF, successStatus, templateOf } from './openapi-operations.js';
import {
  answerSchemas,
  isObject,
  type Json,
  operationsOf,
  Resolver,
  requestSchema,
} from './openapi-read.js';

export { OpenApiDraftError, readOpenApi } from './openapi-read.js';

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
 *
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
    const name = PATH_OF[op];
    // A path of the document's endpoint table is no profile field: the checks use the table's.
    if (template !== undefined && !isDocumentPath(name)) {
      d.paths[name] = template;
      got(`paths.${name}`);
      if (!draft.answered.includes(name)) draft.answered.push(name);
    } else if (
      template !== undefined &&
      !samePath(template, DOCUMENT_PATHS[name as DocumentPathName])
    )
      draft.todos.push(
        `${op}: the document gives ${template}, but the API document's endpoint table fixes ${DOCUMENT_PATHS[name as DocumentPathName]}; the checks send to the table's path, so a server elsewhere fails them`,
      );
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
    const name = PATH_OF[op];
    if (!byOp.has(op) && !isDocumentPath(name) && !draft.missing.includes(name))
      draft.missing.push(name);
  }
  const left = notInferred(d, draft.inferred);
  if (left.length > 0)
    draft.todos.push(
      `not told by the document, kept as written (the starting profile's, else the reference dialect's): ${left.map((f) => `dialect.${f}`).join(', ')}`,
    );
  return draft;
}

/** Two path templates alike but for their placeholders' names. */
function samePath(a: string, b: string): boolean {
  const bare = (t: string) => t.replace(/\{\w+\}/g, '{}');
  return bare(a) === bare(b);
}
