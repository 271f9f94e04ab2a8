import type { CheckContext, HttpResponse, Key, PostOrderOptions } from '../../lib/check/index.js';

export type { PostOrderOptions };

/**
 * `POST /orders` exactly as the check wants it: `ctx.postOrder`, the one way
 * the suite sends an order (its clean-up and daily-limit handling live there).
 */
export function postOrder(
  ctx: CheckContext,
  key: Key,
  body: unknown,
  options: PostOrderOptions = {},
): Promise<HttpResponse> {
  return ctx.postOrder(key, body, options);
}
