import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TokenGate } from '../auth/bearer.js';
import { type Principal, principalOf } from '../auth/principal.js';
import { checkWritable } from '../auth/service-state.js';
import { WEBHOOK_ENDPOINTS_PER_MODE } from '../config/api.js';
import type { AppContext } from '../context.js';
import { newId } from '../domain/ids.js';
import type { Mode } from '../domain/modes.js';
import { faultPoint, readFaultPoint } from '../faults/fault-point.js';
import { readJsonBody } from '../http/body.js';
import { FROM_START, page, parseListQuery, refuseQuery, unknownCursor } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { WebhookEndpoint } from '../store/webhook-endpoints.js';
import { parseBody } from '../validation/order-body.js';
import { WebhookEndpointBodySchema } from '../validation/webhook-body.js';
import { webhookEndpointView } from '../views/events.js';

type WithId = { Params: { id: string } };

function endpointNotFound(): ApiProblem {
  return new ApiProblem('not_found', 'No webhook endpoint with this id in this account and mode.');
}

/**
 * The endpoint limit of the webhook endpoint routes (server/behaviour.ts part
 * `webhookEndpoints`); `webhookEndpointBehaviour` is the reference's.
 */
export interface WebhookEndpointBehaviour {
  /** How many endpoints count toward the limit: the active ones of this account and mode (contract §2). */
  countTowardLimit(accountId: string, mode: Mode): Promise<number>;
  /** How many endpoints may count at once (§6). */
  readonly limit: number;
  /** Stores a new endpoint unless the mode has `limit` already, holding the account's lock. */
  create: typeof createEndpoint;
}

export function webhookEndpointBehaviour(ctx: AppContext): WebhookEndpointBehaviour {
  return {
    countTowardLimit: (accountId, mode) => ctx.store.webhookEndpoints.countActive(accountId, mode),
    limit: WEBHOOK_ENDPOINTS_PER_MODE,
    create: createEndpoint,
  };
}

/**
 * Counts the mode's endpoints and stores the new one in ONE write
 * transaction holding the account's write lock (store.lockAccount): of
 * creations that race for the fifth place, one takes it and every other
 * finds five (§6: a sixth is 422 `limit_exceeded`).
 */
function createEndpoint(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  input: z.output<typeof WebhookEndpointBodySchema>,
  behave: WebhookEndpointBehaviour,
): Promise<WebhookEndpoint> {
  const { account, mode, now } = principal;
  return ctx.store.transaction(async () => {
    await ctx.store.lockAccount(account.id);
    if ((await behave.countTowardLimit(account.id, mode)) >= behave.limit) {
      throw new ApiProblem(
        'limit_exceeded',
        `At most ${WEBHOOK_ENDPOINTS_PER_MODE} webhook endpoints per mode; delete one before adding another.`,
      );
    }
    await faultPoint(ctx, request, account.id, 'before_commit');
    return await ctx.store.webhookEndpoints.insert(account.id, {
      id: newId('we'),
      mode,
      url: input.url,
      events: input.events ?? ['*'],
      createdAt: now,
    });
  });
}

/**
 * §6 webhook endpoints (scope webhooks:manage), contract §2: `POST` answers
 * 201, `GET` list and one, `DELETE` answers 204. At most 5 per mode; a sixth
 * is 422 `limit_exceeded`; deleted endpoints do not count (contract §2).
 */
export function webhookEndpointRoutes(
  ctx: AppContext,
  gate: TokenGate,
  behave: WebhookEndpointBehaviour,
) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = gate('webhookEndpoints');
    const onOne = gate('webhookEndpoint');
    const endpoints = ctx.store.webhookEndpoints;

    app.post('/webhook-endpoints', { onRequest }, async (request, reply) => {
      refuseQuery(request);
      const principal = principalOf(request);
      const { account } = principal;
      checkWritable(account);
      const input = parseBody(WebhookEndpointBodySchema, readJsonBody(request));
      const created = await behave.create(ctx, request, principal, input, behave);
      await faultPoint(ctx, request, account.id, 'after_commit');
      return reply
        .code(201)
        .header('location', `${request.url.split('?')[0]}/${created.id}`)
        .send(webhookEndpointView(created));
    });

    app.get('/webhook-endpoints', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      const { account, mode } = principalOf(request);
      await readFaultPoint(ctx, request, account.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const cursor = await endpoints.get(account.id, mode, startingAfter);
        if (!cursor) throw unknownCursor();
        before = cursor.seq;
      }
      return page(
        await endpoints.page(account.id, mode, before, limit + 1),
        limit,
        webhookEndpointView,
      );
    });

    app.get<WithId>('/webhook-endpoints/:id', { onRequest: onOne }, async (request) => {
      refuseQuery(request);
      const { account, mode } = principalOf(request);
      await readFaultPoint(ctx, request, account.id);
      const endpoint = await endpoints.get(account.id, mode, request.params.id);
      if (!endpoint) throw endpointNotFound();
      return webhookEndpointView(endpoint);
    });

    app.delete<WithId>('/webhook-endpoints/:id', { onRequest: onOne }, async (request, reply) => {
      refuseQuery(request);
      const { account, mode, now } = principalOf(request);
      checkWritable(account);
      await ctx.store.transaction(async () => {
        const endpoint = await endpoints.get(account.id, mode, request.params.id);
        if (!endpoint) throw endpointNotFound();
        await faultPoint(ctx, request, account.id, 'before_commit');
        await endpoints.delete(endpoint.id, now);
      });
      await faultPoint(ctx, request, account.id, 'after_commit');
      return reply.code(204).send();
    });
  };
}
