import { type ClientExchange, isOrderPost, pathOf } from './exchange.js';

/**
 * What an exchange says, read the same way by the layer that plays the
 * situations and by the judges: one reading of a bearer token, a problem's
 * code, an order's external_id and "the same request again".
 */

/** The credential of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 9110 §11.1). */
export function bearerOf(ex: Pick<ClientExchange, 'requestHeaders'>): string | undefined {
  const value = ex.requestHeaders.authorization;
  const match = value === undefined ? null : /^bearer[ \t]+(\S.*)$/i.exec(value.trim());
  return match?.[1]?.trim();
}

/** The problem answer's `code`, when the answer is JSON with a string code. */
export function codeOf(ex: Pick<ClientExchange, 'responseBody'>): string | undefined {
  const body = jsonOf(ex.responseBody);
  const code = isRecord(body) ? body.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** An answer with this status and this problem code. */
export function answered(ex: ClientExchange, status: number, code?: string): boolean {
  return ex.status === status && (code === undefined || codeOf(ex) === code);
}

export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body's external_id, when the body is a JSON object holding a string one. */
export function externalIdOf(ex: Pick<ClientExchange, 'requestBody'>): string | undefined {
  const body = jsonOf(ex.requestBody);
  const id = isRecord(body) ? body.external_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function idempotencyKeyOf(ex: Pick<ClientExchange, 'requestHeaders'>): string | undefined {
  return ex.requestHeaders['idempotency-key'];
}

/** The form fields of a urlencoded body (a repeated field keeps every value). */
export function formOf(ex: Pick<ClientExchange, 'requestBody'>): URLSearchParams {
  return new URLSearchParams(ex.requestBody ?? '');
}

/** `Retry-After` in seconds (whole seconds, RFC 9110 §10.2.3); undefined when absent or a date. */
export function retryAfterOf(ex: Pick<ClientExchange, 'responseHeaders'>): number | undefined {
  const value = ex.responseHeaders['retry-after'];
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** JSON with its object members in key order: "the same body" up to key order and white space. */
export function canonical(text: string | undefined): string {
  const value = jsonOf(text);
  if (value === undefined) return text ?? '';
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * What makes two requests "the same request sent again": an order is its
 * external_id (a retry may change its key: that is judged on its own); a
 * token request is any token request; a read its path; any other its method,
 * path, query and body up to key order.
 */
export function identityOf(ex: ClientExchange): string {
  // Any token request stands for another: the token limit is the key's, whatever scope is asked.
  if (ex.kind === 'token') return 'token';
  if (isOrderPost(ex)) {
    const externalId = externalIdOf(ex);
    if (externalId !== undefined) return `order ${externalId}`;
  }
  // A read is its path: a poll or the next page asks the same thing again, whatever its query.
  if (ex.method === 'GET' || ex.method === 'HEAD') return `${ex.method} ${pathOf(ex.url)}`;
  return `${ex.method} ${ex.url} ${canonical(ex.requestBody)}`;
}

/** The same method, path, query and body (up to key order): a request sent again unchanged. */
export function unchanged(a: ClientExchange, b: ClientExchange): boolean {
  return (
    a.method === b.method &&
    a.url === b.url &&
    canonical(a.requestBody) === canonical(b.requestBody) &&
    idempotencyKeyOf(a) === idempotencyKeyOf(b)
  );
}
