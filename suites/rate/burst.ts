import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { burstInFlight } from '../../lib/check/index.js';

/**
 * Sends `count` requests, as many at a time as the run allows a burst (`burstInFlight`: against
 * a target elsewhere as many as the worker has sockets) or `concurrency`; answers them in the
 * order they were started.
 */
export async function burst(
  ctx: CheckContext,
  count: number,
  send: (index: number) => Promise<HttpResponse>,
  concurrency = burstInFlight(ctx.config),
): Promise<HttpResponse[]> {
  const out: HttpResponse[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      out[index] = await send(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

/**
 * Uses up a fresh key's allowance of one class and answers the first 429.
 * Sends `limit` requests, then one at a time until a 429 comes, at most
 * `limit` more: a fixed window that begins during the burst allows another
 * `limit`. Undefined when no 429 came at all.
 */
export async function firstRefusal(
  ctx: CheckContext,
  limit: number,
  send: () => Promise<HttpResponse>,
): Promise<HttpResponse | undefined> {
  const first = await burst(ctx, limit, send);
  const early = first.find((res) => res.status === 429);
  if (early) return early;
  for (let i = 0; i <= limit; i++) {
    const res = await send();
    if (res.status === 429) return res;
  }
  return undefined;
}
