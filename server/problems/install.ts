import type { FastifyInstance } from 'fastify';
import { ApiProblem } from './api-problem.js';
import { pathOfUrl } from './body.js';
import { sendProblem } from './send.js';
import { toProblem } from './to-problem.js';

/**
 * Makes every error and every unknown route answer problem+json (§7): thrown
 * ApiProblems, Fastify's own errors, and faults of ours (500, logged, no stack
 * trace sent).
 */
export function installProblemHandlers(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error, request.method, pathOfUrl(request.url));
    if (problem.status >= 500 && !(error instanceof ApiProblem)) {
      request.log.error({ err: error }, 'unexpected error');
    }
    return sendProblem(request, reply, problem, docsUrl);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new ApiProblem('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
      docsUrl,
    ),
  );
}
