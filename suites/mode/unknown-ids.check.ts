import { randomUUID } from 'node:crypto';
import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { check } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { ordering } from '../support/ordering.js';
import { problemCode } from '../support/problem-text.js';

/** An id no object has, in the shape ids take (`ord_…`). */
function missingId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

/**
 * A webhook endpoint or event answer to an id no object has: 404 not_found.
 * Their methods and paths are the profile's (section 6 shows neither): a 405,
 * or a 404 without the code (no route, rather than no object), says only that
 * the target does not take them there: noted, not judged.
 */
function expectNotFoundIfRouted(ctx: CheckContext, res: HttpResponse, what: string): void {
  if (res.status === 405 || (res.status === 404 && problemCode(res) !== 'not_found')) {
    ctx.note(
      `${what} answered HTTP ${res.status} without not_found: not the target's route, not judged`,
    );
    return;
  }
  ctx.expectProblem(res, { status: 404, code: 'not_found' });
}

check('MODE-05', async (ctx) => {
  // Section 7: "404 not_found: No such object in the account".
  const { key } = await ordering(ctx);
  const client = ctx.api(key);
  const missing = missingId('ord');
  // Four lookups of objects that do not exist, at once, judged in order.
  const answers = await together(
    client.get(ctx.path('order', { id: missing })),
    client.get(ctx.path('orderByExternalId', { external_id: `never-${randomUUID()}` })),
    client.post(ctx.path('orderCancel', { id: missing })),
    client.get(ctx.path('quote', { id: missingId('quo') })),
  );
  for (const res of answers) ctx.expectProblem(res, { status: 404, code: 'not_found' });
});

check('MODE-09', async (ctx) => {
  // Section 7: "404 not_found: No such object in the account": the other kinds of object too,
  // the shipments and invoice of an order that does not exist, an event, a webhook endpoint
  // (read and delete). MODE-05 tries orders and quotes.
  const { key } = await ordering(ctx);
  const client = ctx.api(key);
  const { operations } = ctx.dialect;
  const order = missingId('ord');
  const hook = missingId('we');
  const event = missingId('evt');
  // Every lookup at once, judged in order.
  const [shipments, invoice, eventRead, endpointRead, endpointDelete] = await together(
    client.get(ctx.path('shipments', { id: order })),
    client.get(ctx.path('invoice', { id: order })),
    client.send({ method: operations.eventRead.method, path: ctx.path('event', { id: event }) }),
    client.send({
      method: operations.webhookEndpointRead.method,
      path: ctx.path('webhookEndpoint', { id: hook }),
    }),
    client.send({
      method: operations.webhookEndpointDelete.method,
      path: ctx.path('webhookEndpoint', { id: hook }),
    }),
  );
  ctx.expectProblem(shipments, { status: 404, code: 'not_found' });
  ctx.expectProblem(invoice, { status: 404, code: 'not_found' });
  expectNotFoundIfRouted(ctx, eventRead, 'reading an event that does not exist');
  expectNotFoundIfRouted(ctx, endpointRead, 'reading a webhook endpoint that does not exist');
  expectNotFoundIfRouted(ctx, endpointDelete, 'deleting a webhook endpoint that does not exist');
});
