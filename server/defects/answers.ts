import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../config/api.js';
import { PROBLEM_CONTENT_TYPE } from '../problems/body.js';
import { bentAccountView } from './account-view.js';
import type { HasDefect } from './catalogue.js';
import { bentProblem } from './problem.js';
import { installShipmentsNotFound } from './shipments-not-found.js';

type Json = Record<string, unknown>;
type Bend = (body: Json, hasDefect: HasDefect) => Json;

/** `token-expires-in-3700`, `token-type-lowercase`, `token-scope-as-list`: the §2 token response. */
const bentTokenResponse: Bend = (body, hasDefect) => ({
  ...body,
  ...(hasDefect('token-type-lowercase') ? { token_type: 'bearer' } : {}),
  ...(hasDefect('token-expires-in-3700') ? { expires_in: 3700 } : {}),
  ...(hasDefect('token-scope-as-list') && typeof body.scope === 'string'
    ? { scope: body.scope.split(' ').filter((s) => s !== '') }
    : {}),
});

/** `order-read-without-external-id`: GET /orders/{id} as a view that forgot a field shows it. */
const bentOrderRead: Bend = (body, hasDefect) => {
  if (!hasDefect('order-read-without-external-id')) return body;
  const { external_id: _left, ...rest } = body;
  return rest;
};

/** `shipments-not-listed`: the shipments under `shipments`, not the list shape's `data`. */
const bentShipments: Bend = (body, hasDefect) =>
  hasDefect('shipments-not-listed') ? { shipments: body.data, has_more: body.has_more } : body;

/** 2xx answers by route, as a defective server words them. */
const SUCCESS_BENDS: Record<string, Bend> = {
  [`POST ${API_BASE}/oauth/token`]: bentTokenResponse,
  [`GET ${API_BASE}/account`]: (body, hasDefect) =>
    bentAccountView(body as Parameters<typeof bentAccountView>[0], hasDefect) as Json,
  [`GET ${API_BASE}/orders/:id`]: bentOrderRead,
  [`GET ${API_BASE}/orders/:id/shipments`]: bentShipments,
};

/**
 * The answer seam of the defect catalogue: an `onSend` hook that rewords
 * answers the correct routes made (problem fields and media type, the token
 * response, account and order views). Installed only when defects are
 * switched on (app.ts), so the correct server never runs it and its routes
 * never mention these defects.
 */
export function installAnswerDefects(app: FastifyInstance, hasDefect: HasDefect): void {
  installShipmentsNotFound(app, hasDefect);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || payload === '') {
      done(null, payload);
      return;
    }
    try {
      done(null, bentAnswer(request, reply, payload, hasDefect));
    } catch (error) {
      done(error as Error);
    }
  });
}

function bentAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: string,
  hasDefect: HasDefect,
): string {
  // `retry-after-missing`, `retry-after-too-short` (§8 429 answers).
  if (reply.statusCode === 429) {
    const seconds = reply.getHeader('retry-after');
    if (hasDefect('retry-after-missing')) reply.removeHeader('retry-after');
    else if (hasDefect('retry-after-too-short') && seconds !== undefined)
      reply.header('retry-after', String(Math.max(0, Number(seconds) - 5)));
  }
  const type = String(reply.getHeader('content-type') ?? '');
  if (
    type.startsWith(PROBLEM_CONTENT_TYPE) ||
    (type.startsWith('application/json') && reply.statusCode >= 400)
  ) {
    const body = JSON.parse(payload) as Json;
    const { body: bent, status } = bentProblem(body, request, hasDefect);
    if (status !== reply.statusCode) reply.code(status);
    if (hasDefect('problem-as-plain-json')) reply.type('application/json');
    return JSON.stringify(bent);
  }
  if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
  const bend = SUCCESS_BENDS[`${request.method} ${request.routeOptions.url ?? ''}`];
  return bend === undefined
    ? payload
    : JSON.stringify(bend(JSON.parse(payload) as Json, hasDefect));
}
