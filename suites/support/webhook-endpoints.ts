import type { CheckContext, HttpResponse, Key, OperationName } from '../../lib/check/index.js';
import { dialectGap, idIn, NotVerifiable, put, walkList } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';

/** Section 6, section 8: webhook endpoints per mode. */
export const ENDPOINTS_PER_MODE = 5;

/**
 * The body of a webhook endpoint creation in the dialect
 * (`dialect.webhookEndpointBody`): the URL, and the order-created kind when
 * the target takes a list of kinds (none when `events` is null).
 */
export function endpointBody(
  ctx: Pick<CheckContext, 'dialect'>,
  url: string,
): Record<string, unknown> {
  const shape = ctx.dialect.webhookEndpointBody;
  const body: Record<string, unknown> = {};
  put(body, shape.url, url);
  if (shape.events !== null) put(body, shape.events, [ctx.dialect.eventKinds.orderCreated]);
  return body;
}

/** The operation's request: the method is the dialect's (the document does not show it). */
export function deleteEndpoint(ctx: CheckContext, key: Key, id: string): Promise<HttpResponse> {
  return ctx.api(key).send({
    method: ctx.dialect.operations.webhookEndpointDelete.method,
    path: ctx.path('webhookEndpoint', { id }),
  });
}

/** `GET`-like read of one endpoint, with the dialect's method. */
export function readEndpoint(ctx: CheckContext, key: Key, id: string): Promise<HttpResponse> {
  return ctx.api(key).send({
    method: ctx.dialect.operations.webhookEndpointRead.method,
    path: ctx.path('webhookEndpoint', { id }),
  });
}

/**
 * Creates a webhook endpoint (contract section 2: `{url, events?}`; the
 * dialect may say otherwise) to a realistic https URL. An endpoint made is
 * deleted as the check ends (while its key still works), so a partner sandbox is left as it was found.
 */
export async function createEndpoint(ctx: CheckContext, key: Key): Promise<HttpResponse> {
  const url = `https://${ctx.faker.internet.domainName()}/webhooks/${ctx.faker.string.alphanumeric(10)}`;
  const res = await ctx.api(key).send({
    method: ctx.dialect.operations.webhookEndpointCreate.method,
    path: ctx.path('webhookEndpoints'),
    json: endpointBody(ctx, url),
  });
  const id = idIn(ctx.dialect, 'webhookEndpoint', res.json);
  if (res.status < 300 && id !== undefined) {
    ctx.onCleanup(async () => {
      await deleteEndpoint(ctx, key, id);
    });
  }
  return res;
}

/**
 * How many endpoints the key's mode has now (walking the list), or why they
 * could not be counted (naming the profile fields a refusal points at).
 */
export async function countEndpoints(
  ctx: CheckContext,
  key: Key,
  pages?: HttpResponse[],
): Promise<number | { why: string }> {
  let count = 0;
  const list = {
    operation: 'webhookEndpointList',
    path: ctx.path('webhookEndpoints'),
    kind: 'webhookEndpoint',
  } as const;
  try {
    const walk = await walkList(
      ctx.api(key),
      ctx.dialect,
      list,
      (items, res) => {
        pages?.push(res);
        count += items.length;
      },
      { maxPages: 10 },
    );
    if (walk.end === 'complete') return count;
    if (walk.end !== 'refused') return { why: `the list did not end within 10 pages` };
    const { res } = walk;
    const code = problemCode(res);
    const answered = `HTTP ${res.status}${code === undefined ? '' : ` ${code}`} (evidence #${res.exchange})`;
    if (res.status === 400 || res.status === 422) {
      return {
        why: `a page was answered ${answered}: set dialect.list.limitParam, cursorParam and maxLimit as the target takes them`,
      };
    }
    const gap = endpointDialectGap(ctx, res, 'webhookEndpointList', 'listing webhook endpoints');
    return { why: gap ? gap.message : `a page was answered ${answered}` };
  } catch (error) {
    if (error instanceof NotVerifiable) return { why: error.message };
    throw error;
  }
}

/** The operations on one endpoint or event, whose path the profile gives. */
const ITEM_PATHS: Partial<Record<OperationName, 'webhookEndpoint' | 'event'>> = {
  webhookEndpointRead: 'webhookEndpoint',
  webhookEndpointDelete: 'webhookEndpoint',
  eventRead: 'event',
};

/**
 * Whether a refusal of a webhook endpoint or event request says only that the
 * target does not take it in the run's dialect: the API document shows
 * neither the methods of these operations nor the endpoint body (section 6),
 * so a 404 or 405 to the profile's method and path, or a 422
 * `validation_failed` to the profile's endpoint body, is no violation. The
 * check cannot judge what rests on the request: a `dialectGap` naming the
 * profile fields; undefined for any other answer.
 */
export function endpointDialectGap(
  ctx: Pick<CheckContext, 'dialect'>,
  res: HttpResponse,
  operation: OperationName,
  what: string,
): NotVerifiable | undefined {
  const { method } = ctx.dialect.operations[operation];
  const code = problemCode(res);
  const answered = `HTTP ${res.status}${code === undefined ? '' : ` ${code}`}`;
  if (res.status === 404 || res.status === 405) {
    // The collection paths are the document's (section 6); one endpoint's or event's is the profile's.
    const path = ITEM_PATHS[operation];
    return dialectGap(
      `${what} (${method}) was answered ${answered}: the target does not take that method there`,
      `dialect.operations.${operation}.method${path ? ` (or dialect.paths.${path})` : ''}`,
      res.exchange,
    );
  }
  if (operation === 'webhookEndpointCreate' && res.status === 422 && code === 'validation_failed') {
    return dialectGap(
      `${what} was answered ${answered}: the target does not take the endpoint body of the profile`,
      'dialect.webhookEndpointBody (or dialect.eventKinds)',
      res.exchange,
    );
  }
  return undefined;
}
