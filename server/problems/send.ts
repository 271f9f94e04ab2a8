import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiProblem } from './api-problem.js';
import { PROBLEM_CONTENT_TYPE, pathOfUrl, problemBody } from './body.js';

/** Sends a problem as `application/problem+json` (§7, RFC 9457). */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ApiProblem,
  docsUrl: string,
): FastifyReply {
  const oauth = request.routeOptions.config?.oauth === true;
  const body = problemBody(problem, {
    docsUrl,
    instance: pathOfUrl(request.url),
    requestId: request.id,
    oauth,
  });
  // House rules: nothing the client sent that looks like a credential comes back (instance, detail, ...).
  const safeBody = request.server.ctx.guard.redactor.value(body);
  const headers = problem.options.headers;
  if (headers) reply.headers(headers);
  // Also when the request never reached the hooks (an undecodable URL).
  reply.header('request-id', request.id);
  // RFC 6749 §5.1/§5.2: token-endpoint answers must not be cached.
  if (oauth) reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  const type =
    oauth && acceptsOnlyPlainJson(request.headers.accept)
      ? 'application/json'
      : PROBLEM_CONTENT_TYPE;
  return reply.code(problem.status).type(type).send(JSON.stringify(safeBody));
}

/**
 * RFC 6749 §5.2 has token-endpoint errors in `application/json`, and OAuth
 * client libraries insist on it (they send `Accept: application/json`). So
 * at the token endpoint only, a client that accepts `application/json` but
 * not `application/problem+json` gets the same problem body as
 * `application/json`; everyone else gets `application/problem+json` (§7).
 */
function acceptsOnlyPlainJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  return types.includes('application/json') && !types.includes(PROBLEM_CONTENT_TYPE);
}
