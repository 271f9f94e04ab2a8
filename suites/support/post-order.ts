import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { NotVerifiable } from '../../lib/violations/harness-error.js';
import { newIdempotencyKey } from './new-idempotency-key.js';
import { problemTexts } from './problem-text.js';

export interface PostOrderOptions {
  /** The Idempotency-Key; `null` sends none. Default: a new unique key. */
  idempotencyKey?: string | null;
  /** Headers besides the defaults; `null` removes one (e.g. `content-type`). */
  headers?: Record<string, string | null>;
  /** Sent byte for byte instead of `JSON.stringify(body)` (with `Content-Type: application/json` unless `headers` say otherwise). */
  rawBody?: string;
}

const cancelling = new Set<string>();

/** A refusal naming the orders-per-day limit (section 7 validation_failed: "the message names the limit"). */
function reachedDailyLimit(res: HttpResponse): boolean {
  return problemTexts(res).some((text) => /per[\s_-]*day|daily/i.test(text));
}

/**
 * `POST /orders` exactly as the check wants it, answering the raw response so
 * that the check judges status, headers and body itself. An order placed with
 * the partner key is cancelled at the end of the file (sandbox etiquette, as
 * `ctx.placeOrder` does); orders in accounts the run made need no clean-up.
 * A partner account that has used up its orders for the day cannot show
 * anything more about orders today: the check is then not verifiable.
 */
export async function postOrder(
  ctx: CheckContext,
  key: Key,
  body: unknown,
  options: PostOrderOptions = {},
): Promise<HttpResponse> {
  const idempotencyKey =
    options.idempotencyKey === undefined ? newIdempotencyKey() : options.idempotencyKey;
  const headers: Record<string, string | null> = {
    ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
    ...options.headers,
  };
  const res = await ctx.api(key).send(
    options.rawBody === undefined
      ? { method: 'POST', path: ctx.path('orders'), json: body, headers }
      : {
          method: 'POST',
          path: ctx.path('orders'),
          body: options.rawBody,
          headers: { 'content-type': 'application/json', ...headers },
        },
  );
  if (key.accountId === undefined && res.status === 422 && reachedDailyLimit(res)) {
    throw new NotVerifiable(
      `the partner account has reached its maximum orders per day (evidence #${res.exchange}); the orders this check needs cannot be placed today`,
      ['accounts'],
    );
  }
  const id = (res.json as { id?: unknown } | undefined)?.id;
  if (key.accountId === undefined && res.status < 300 && typeof id === 'string') {
    if (!cancelling.has(id)) {
      cancelling.add(id);
      ctx.onCleanup(async () => {
        await ctx.api(key).post(ctx.path('orderCancel', { id }));
      });
    }
  }
  return res;
}
