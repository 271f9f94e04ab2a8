import type { SituationName } from '../../rules/client/index.js';

/** All paths of the API are under this base (API document section 9). */
export const API_BASE = '/api/on-demand/v1';
export const TOKEN_PATH = `${API_BASE}/oauth/token`;
export const ORDERS_PATH = `${API_BASE}/orders`;
export const BY_EXTERNAL_ID_PATH = `${API_BASE}/orders/by-external-id/`;

/** The limit class of a request (API document section 8). */
export type RequestClass = 'token' | 'read' | 'write';

/**
 * One exchange of the partner's client with the sandbox, as the client saw
 * it (a situation's answer included). Unredacted: it lives in memory only,
 * for the judges; the report gets it through the redactor
 * (lib/sandbox/redacted.ts).
 */
export interface ClientExchange {
  /** From 1, in the order the requests arrived. */
  id: number;
  startedAt: Date;
  /** performance.now() when the request arrived, and when its answer was sent whole. */
  receivedMs: number;
  answeredMs: number;
  /**
   * The connection it came on: when that was opened, and whether this was its
   * first request. A client opens a connection to send a request, so a first
   * request on a connection opened before some answer went out was under way
   * before the client could read that answer (lib/grading/traffic.ts).
   */
  connection: { id: number; openedMs: number; first: boolean };
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Lower-cased names. */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders: Record<string, string>;
  responseBody?: string;
  /** The sandbox did not answer (the client got 502). */
  error?: { code: string; message: string };
  /** The token request, another call under the API base, or anything else. */
  kind: 'token' | 'call' | 'other';
  cls: RequestClass;
  /** The situation played on this exchange, and whether it was the reworded replay. */
  play?: { situation: SituationName; reworded: boolean };
  /** Its problem answer's title and detail were reworded. */
  reworded: boolean;
  /** What the sandbox did around it (a clock moved, a fault armed), for the report. */
  notes: string[];
}

export function kindOf(method: string, url: string): ClientExchange['kind'] {
  const path = pathOf(url);
  if (method === 'POST' && path === TOKEN_PATH) return 'token';
  return path === API_BASE || path.startsWith(`${API_BASE}/`) ? 'call' : 'other';
}

export function classOf(method: string, url: string): RequestClass {
  if (kindOf(method, url) === 'token') return 'token';
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/** The path of a request target, without the query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function isOrderPost(ex: Pick<ClientExchange, 'method' | 'url'>): boolean {
  return ex.method === 'POST' && pathOf(ex.url).replace(/\/+$/, '') === ORDERS_PATH;
}

export function isQuotePost(ex: Pick<ClientExchange, 'method' | 'url'>): boolean {
  return ex.method === 'POST' && pathOf(ex.url).replace(/\/+$/, '') === `${API_BASE}/quotes`;
}
