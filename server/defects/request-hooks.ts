import type { FastifyInstance } from 'fastify';
import { announcesBody, readBodilessMethodBody } from '../http/bodiless-method-body.js';
import { credentialsInUrlProblem } from '../http/credentials-in-url.js';
import { ApiProblem } from '../problems/api-problem.js';
import { holdsSecretKey, secretInBodyProblem } from '../validation/secret-in-body.js';
import { urlOverlookingCredentials } from './requests.js';

/**
 * The request hooks (http/api-hooks.ts) of a defective server: credentials in
 * the query and Secret Keys in bodies overlooked as `query-token-accepted`,
 * `query-secret-accepted`, `secret-in-body-accepted` and
 * `secret-in-token-form-accepted` say. Installed instead of the correct ones
 * only when defects are on.
 */
export function installDefectiveRequestHooks(app: FastifyInstance): void {
  // Callback-style hooks (no promise per request): a throw is caught by Fastify's hook runner.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id);
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is 400 (Node's own check would answer an empty body).
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new ApiProblem('validation_failed', 'An HTTP/1.1 request must carry a Host header.', {
        status: 400,
        errors: [{ detail: 'The Host header is missing (RFC 9112 §3.2).', pointer: '' }],
      });
    }
    const { hasDefect } = app.ctx;
    const url =
      hasDefect('query-token-accepted') || hasDefect('query-secret-accepted')
        ? urlOverlookingCredentials(request.url, hasDefect)
        : request.url;
    if (app.ctx.guard.urlHoldsCredentials(url)) throw credentialsInUrlProblem();
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && announcesBody(request.raw)) {
      readBodilessMethodBody(request.raw).then(
        (body) =>
          holdsSecretKey(body.toString('latin1')) && !app.ctx.hasDefect('secret-in-body-accepted')
            ? done(secretInBodyProblem())
            : done(),
        done,
      );
      return;
    }
    const body = request.body;
    if (body instanceof Buffer && body.length > 0) {
      const overlooked =
        request.routeOptions.config?.oauth === true
          ? app.ctx.hasDefect('secret-in-token-form-accepted')
          : app.ctx.hasDefect('secret-in-body-accepted');
      if (holdsSecretKey(body.toString('latin1')) && !overlooked) throw secretInBodyProblem();
    }
    done();
  });
}
