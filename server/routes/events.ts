import type { FastifyInstance } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { readFaultPoint } from '../faults/fault-point.js';
import {
  badParameter,
  FROM_START,
  page,
  parseListQuery,
  refuseQuery,
  unknownCursor,
} from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { EVENT_TYPES, isEventType } from '../store/events.js';
import { eventView } from '../views/events.js';

/**
 * §6 events (scope webhooks:manage), contract §2: `GET /events` (newest
 * first, optional `type` filter) and `GET /events/{id}`. Events of one mode only.
 */
export function eventRoutes(ctx: AppContext, gate: TokenGate) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = gate('events');
    const onOne = gate('event');

    app.get('/events', { onRequest }, async (request) => {
      const { limit, startingAfter, extra } = parseListQuery(request, ['type']);
      // Contract §2: a bad query parameter is 422 on its name, not a silently empty list.
      if (extra.type !== undefined && !isEventType(extra.type)) {
        throw badParameter('type', `must be one of ${EVENT_TYPES.join(', ')}.`);
      }
      const { account, mode } = principalOf(request);
      await readFaultPoint(ctx, request, account.id);
      let before = FROM_START;
      if (startingAfter !== undefined) {
        const cursor = await ctx.store.events.get(account.id, mode, startingAfter);
        if (!cursor) throw unknownCursor();
        before = cursor.seq;
      }
      const rows = await ctx.store.events.page(account.id, mode, extra.type, before, limit + 1);
      return page(rows, limit, eventView);
    });

    app.get<{ Params: { id: string } }>('/events/:id', { onRequest: onOne }, async (request) => {
      refuseQuery(request);
      const { account, mode } = principalOf(request);
      await readFaultPoint(ctx, request, account.id);
      const event = await ctx.store.events.get(account.id, mode, request.params.id);
      if (!event)
        throw new ApiProblem('not_found', 'No event with this id in this account and mode.');
      return eventView(event);
    });
  };
}
