import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  inRequestScope,
  newRequestScope,
  pauseDeadline,
  type RequestScope,
  resumeDeadline,
} from '../store/request-deadline.js';

/**
 * Every request's database work runs under one deadline
 * (store/request-deadline.ts): authentication (onRequest hooks), the
 * handler and everything they await may wait for the database `budgetMs` in
 * all, then the store refuses (503 `api_unavailable`). The time its body takes
 * to arrive does not count. The scope is entered in the first hook and again
 * before the handler: reading the body runs in the socket's async context,
 * not the request's.
 */
export function installDatabaseDeadline(app: FastifyInstance, budgetMs: number): void {
  const scopes = new WeakMap<FastifyRequest, RequestScope>();
  app.addHook('onRequest', (request, _reply, done) => {
    const scope = newRequestScope(budgetMs);
    scopes.set(request, scope);
    inRequestScope(scope, () => done());
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const scope = scopes.get(request);
    if (scope) pauseDeadline(scope);
    done(null, payload);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (!scope) {
      done();
      return;
    }
    resumeDeadline(scope);
    inRequestScope(scope, () => done());
  });
}
