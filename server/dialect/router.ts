import { API_BASE } from '../config/api.js';
import {
  type Dialect,
  OPERATION_PATHS,
  type OperationName,
  pathTemplate,
  REFERENCE_DIALECT,
} from './model.js';

/** A request of the dialect, matched to the reference operation it asks for. */
export interface Matched {
  op: OperationName;
  /** The reference URL the domain's routes serve (path and query). */
  url: string;
  method: string;
}

interface QueryPart {
  name: string;
  /** A literal value the request must carry, or the placeholder it fills. */
  literal?: string;
  placeholder?: string;
}

interface CompiledOperation {
  op: OperationName;
  method: string;
  path: RegExp;
  pathPlaceholders: string[];
  query: QueryPart[];
  /** Literal characters of the path: the more, the more specific. */
  weight: number;
}

/** Operations answered with a list (contract §2 lists): they take the dialect's paging parameters. */
export const LIST_OPERATIONS: ReadonlySet<OperationName> = new Set([
  'orderList',
  'shipments',
  'catalogProducts',
  'webhookEndpointList',
  'eventList',
]);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(op: OperationName, method: string, template: string): CompiledOperation {
  const [path = '', query = ''] = template.split('?', 2);
  const pathPlaceholders: string[] = [];
  let source = '';
  let last = 0;
  for (const match of path.matchAll(/\{(\w+)\}/g)) {
    source += escapeRegExp(path.slice(last, match.index));
    source += '([^/]+)';
    pathPlaceholders.push(match[1] ?? '');
    last = (match.index ?? 0) + match[0].length;
  }
  source += escapeRegExp(path.slice(last));
  const parts: QueryPart[] = [];
  for (const pair of query === '' ? [] : query.split('&')) {
    const [name = '', value = ''] = pair.split('=', 2);
    const placeholder = /^\{(\w+)\}$/.exec(value)?.[1];
    parts.push(
      placeholder !== undefined
        ? { name: decodeURIComponent(name), placeholder }
        : { name: decodeURIComponent(name), literal: decodeURIComponent(value) },
    );
  }
  return {
    op,
    method,
    path: new RegExp(`^${source}$`),
    pathPlaceholders,
    query: parts,
    weight: path.replace(/\{\w+\}/g, '').length,
  };
}

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The dialect's routes: its method and path (the query included) of each
 * operation, the more specific first (more query parts, then longer literal
 * paths), so `/orders?external_id={external_id}` wins over `/orders`.
 */
export class DialectRouter {
  readonly #operations: CompiledOperation[];
  readonly #dialect: Dialect;

  constructor(dialect: Dialect) {
    this.#dialect = dialect;
    this.#operations = (Object.keys(dialect.operations) as OperationName[])
      .map((op) =>
        compile(op, dialect.operations[op].method, pathTemplate(dialect, OPERATION_PATHS[op])),
      )
      .sort((a, b) => b.query.length - a.query.length || b.weight - a.weight);
  }

  /** `path` is below the API base, `query` without its `?`. */
  match(method: string, path: string, query: string): Matched | undefined {
    const head = method === 'HEAD' ? 'GET' : method;
    const search = new URLSearchParams(query);
    for (const candidate of this.#operations) {
      if (candidate.method !== head) continue;
      const found = candidate.path.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      let ok = true;
      candidate.pathPlaceholders.forEach((name, i) => {
        const value = decode(found[i + 1] ?? '');
        if (value === undefined) ok = false;
        else params[name] = value;
      });
      const rest = new URLSearchParams(search);
      for (const part of candidate.query) {
        const value = rest.get(part.name);
        if (value === null || (part.literal !== undefined && value !== part.literal)) ok = false;
        else if (part.placeholder !== undefined) params[part.placeholder] = value;
        rest.delete(part.name);
      }
      if (!ok) continue;
      const referenceMethod = REFERENCE_DIALECT.operations[candidate.op].method;
      const referencePath = fill(
        pathTemplate(REFERENCE_DIALECT, OPERATION_PATHS[candidate.op]),
        params,
      );
      const referenceQuery = this.#referenceQuery(candidate.op, rest);
      return {
        op: candidate.op,
        method: method === 'HEAD' ? 'HEAD' : referenceMethod,
        url: `${API_BASE}${referencePath}${referenceQuery === '' ? '' : `?${referenceQuery}`}`,
      };
    }
    return undefined;
  }

  /** The paging parameters under the reference's names; the reference's own names are no longer known. */
  #referenceQuery(op: OperationName, rest: URLSearchParams): string {
    const list = this.#dialect.list;
    const pairs: string[] = [];
    for (const [name, value] of rest) {
      let referenceName = name;
      let referenceValue = value;
      if (LIST_OPERATIONS.has(op)) {
        if (name === list.cursorParam) referenceName = 'starting_after';
        else if (name === list.limitParam) {
          referenceName = 'limit';
          // Past the dialect's largest page: the domain's own refusal, worded for the dialect.
          if (/^\d+$/.test(value) && Number(value) > list.maxLimit) referenceValue = '0';
        } else if (name === 'starting_after' || name === 'limit')
          referenceName = `${UNKNOWN}${name}`;
        else if (op === 'eventList' && name === 'type') {
          referenceValue =
            value === this.#dialect.eventKinds.orderCreated
              ? 'order.created'
              : value === this.#dialect.eventKinds.orderCancelled
                ? 'order.cancelled'
                : value === 'order.created' || value === 'order.cancelled'
                  ? `${value}?`
                  : value;
        }
      }
      pairs.push(`${encodeURIComponent(referenceName)}=${encodeURIComponent(referenceValue)}`);
    }
    return pairs.join('&');
  }
}

/** Marks a reference parameter name the dialect does not use, so the domain refuses it as unknown. */
export const UNKNOWN = '__unknown__';
