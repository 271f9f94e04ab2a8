import type { FastifyInstance } from 'fastify';
import { ApiProblem } from '../problems/api-problem.js';

/**
 * Probes for an operator's balancer and orchestrator (docs/sandbox.md), outside
 * the API base and outside the API document:
 * - `GET /healthz` (liveness): 200 while the process answers at all;
 * - `GET /readyz` (readiness): 200 when the database answers, 503 problem+json
 *   `api_unavailable` when it does not or once the instance is shutting down,
 *   so that the balancer sends new requests elsewhere while this one finishes
 *   the requests it holds.
 * No credentials: they say nothing an unauthenticated client could not learn.
 */
export function installHealthRoutes(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const noStore = { 'cache-control': 'no-store' };
  app.get('/healthz', async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (closing) {
      throw new ApiProblem('api_unavailable', 'This instance is shutting down.', {
        headers: { ...noStore, 'retry-after': '1' },
      });
    }
    try {
      await app.ctx.store.ping();
    } catch {
      // Whatever the engine's error (refused, timed out, closed): not ready.
      throw new ApiProblem('api_unavailable', 'The database does not answer.', {
        headers: { ...noStore, 'retry-after': '5' },
      });
    }
    return reply.headers(noStore).send({ status: 'ready', engine: app.ctx.store.engine });
  });
}
