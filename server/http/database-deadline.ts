import type { FastifyInstance } from 'fastify';
import { withDatabaseDeadline } from '../store/request-deadline.js';

/**
 * Every request's database work runs under one deadline (store/request-deadline.ts):
 * its handler, and everything it awaits, may wait for the database `budgetMs`
 * in all, then the store refuses (503 `api_unavailable`). Entered in the last
 * hook before the handler, so that the body's reading does not count.
 */
export function installDatabaseDeadline(app: FastifyInstance, budgetMs: number): void {
  app.addHook('preHandler', (_request, _reply, done) => {
    withDatabaseDeadline(budgetMs, () => done());
  });
}
