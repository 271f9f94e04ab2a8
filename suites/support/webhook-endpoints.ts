import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';

/** Section 6, section 8: webhook endpoints per mode. */
export const ENDPOINTS_PER_MODE = 5;

/**
 * `POST /webhook-endpoints` (contract section 2: `{url, events?}`) to a
 * realistic https URL. An endpoint made is deleted at the end of the file,
 * so a partner sandbox is left as it was found.
 */
export async function createEndpoint(ctx: CheckContext, key: Key): Promise<HttpResponse> {
  const url = `https://${ctx.faker.internet.domainName()}/webhooks/${ctx.faker.string.alphanumeric(10)}`;
  const res = await ctx.api(key).post(ctx.path('webhookEndpoints'), {
    url,
    events: ['order.created'],
  });
  const id = (res.json as { id?: unknown } | undefined)?.id;
  if (res.status < 300 && typeof id === 'string') {
    ctx.onCleanup(async () => {
      await ctx.api(key).delete(ctx.path('webhookEndpoint', { id }));
    });
  }
  return res;
}

/** How many endpoints the key's mode has now (walking the list); undefined when it cannot be listed. */
export async function countEndpoints(ctx: CheckContext, key: Key): Promise<number | undefined> {
  let count = 0;
  let after: string | undefined;
  for (let page = 0; page < 10; page++) {
    const res = await ctx.api(key).get(ctx.path('webhookEndpoints'), {
      limit: '100',
      ...(after ? { starting_after: after } : {}),
    });
    const body = res.json as { data?: unknown; has_more?: unknown } | undefined;
    if (res.status !== 200 || !Array.isArray(body?.data)) return undefined;
    count += body.data.length;
    if (body.has_more !== true) return count;
    after = (body.data.at(-1) as { id?: string } | undefined)?.id;
  }
  return undefined;
}
