import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiProblem } from '../problems/api-problem.js';

/**
 * At most `max` requests on one keep-alive connection (ServerLimits.maxRequestsPerSocket).
 * Node's own limit answers the requests pipelined past it with a bare 503 (no
 * problem+json), after their handlers may have run. Here the last request
 * allowed is answered with `Connection: close` (so the connection ends after
 * it, as HTTP/1.1 §9.6 says), and a request pipelined after it is refused
 * before any route runs (nothing is placed) with 503 problem+json, which the
 * closing connection may never carry: the client sees a clean close and
 * sends it again on a new connection.
 */
export function installRequestsPerSocket(app: FastifyInstance, max: number): void {
  const counts = new WeakMap<Socket, number>();
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    const count = (counts.get(socket) ?? 0) + 1;
    counts.set(socket, count);
    if (count >= max) reply.header('connection', 'close');
    if (count > max) {
      done(
        new ApiProblem(
          'api_unavailable',
          `This connection has carried its ${max} requests; send this one again on a new connection.`,
          { headers: { 'retry-after': '1' } },
        ),
      );
      return;
    }
    done();
  });
}
