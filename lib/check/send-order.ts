import { randomUUID } from 'node:crypto';
import type { Dialect } from '../target/dialect.js';
import { NotVerifiable } from '../violations/harness-error.js';
import { idIn } from './answers.js';
import type { ApiClient, HttpResponse, Key, PostOrderOptions, RequestSpec } from './context-api.js';

/** Section 4, idempotency rule 1: each new order is sent with a unique Idempotency-Key. */
export function newIdempotencyKey(): string {
  return `ct-${randomUUID()}`;
}

/**
 * The request of the one way the suite sends an order: the order path of the
 * dialect, exactly as the check wants it (a new unique Idempotency-Key unless
 * the options say otherwise), without credentials (the caller's).
 */
export function orderRequest(
  path: string,
  body: unknown,
  options: PostOrderOptions,
): Omit<RequestSpec, 'auth'> {
  const idempotencyKey =
    options.idempotencyKey === undefined ? newIdempotencyKey() : options.idempotencyKey;
  const headers: Record<string, string | null> = {
    ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
    ...options.headers,
  };
  return options.rawBody === undefined
    ? { method: 'POST', path, json: body, headers }
    : {
        method: 'POST',
        path,
        body: options.rawBody,
        headers: { 'content-type': 'application/json', ...headers },
      };
}

/**
 * The one way the suite sends an order: `orderRequest`, answering the raw
 * response (`orderAnswered`).
 */
export async function sendOrder(
  api: ApiClient,
  path: string,
  key: Key,
  body: unknown,
  options: PostOrderOptions,
  placedByPartner: (id: string) => void,
  dialect: Dialect,
): Promise<HttpResponse> {
  const res = await api.send(orderRequest(path, body, options));
  orderAnswered(res, key, placedByPartner, dialect);
  return res;
}

/**
 * What the suite does with every answer to an order, however it was sent: a
 * partner account that has used up its orders for the day cannot show
 * anything more about orders today, so the check is then not verifiable; an
 * order the partner key placed is handed to `placedByPartner` to be cancelled
 * at the end of the file (sandbox etiquette); orders in accounts the run made
 * need no clean-up.
 */
export function orderAnswered(
  res: HttpResponse,
  key: Key,
  placedByPartner: (id: string) => void,
  dialect: Dialect,
): void {
  const partner = key.accountId === undefined;
  if (partner && res.status === 422 && reachedDailyLimit(res)) {
    throw new NotVerifiable(
      `the partner account has reached its maximum orders per day (evidence #${res.exchange}); the orders this check needs cannot be placed today`,
      ['accounts'],
    );
  }
  const id = idIn(dialect, 'order', res.json);
  if (partner && res.status < 300 && id !== undefined) placedByPartner(id);
}

/** A refusal naming the orders-per-day limit (section 7 validation_failed: "the message names the limit"). */
function reachedDailyLimit(res: HttpResponse): boolean {
  const json = res.json as { detail?: unknown; errors?: unknown } | undefined;
  const texts = [json?.detail];
  if (Array.isArray(json?.errors)) {
    for (const entry of json.errors) texts.push((entry as { detail?: unknown } | null)?.detail);
  }
  return texts.some((text) => typeof text === 'string' && /per[\s_-]*day|daily/i.test(text));
}
