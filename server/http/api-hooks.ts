import type { FastifyInstance } from 'fastify';
import { ApiProblem } from '../problems/api-problem.js';
import { secretInBodyProblem } from '../validation/secret-in-body.js';
import { announcesBody, readBodilessMethodBody } from './bodiless-method-body.js';
import { credentialsInUrlProblem } from './credentials-in-url.js';

/**
 * The decisions of the request hooks that test-only defects bend
 * (context.ts `DefectHooks.requestChecks`); `correctRequestChecks` is the correct one.
 */
export interface RequestCheckBehaviour {
  /** The URL looked through for credentials (§5.6). */
  urlToCheck(url: string): string;
  /** Whether a body holding a Secret Key is let through; `tokenForm`: the token request's form. */
  overlooksSecretInBody(tokenForm: boolean): boolean;
}

export const correctRequestChecks: RequestCheckBehaviour = {
  urlToCheck: (url) => url,
  overlooksSecretInBody: () => false,
};

/**
 * Hooks every API request runs, unknown routes included:
 * - the `Request-Id` header (the same id as a problem's `request_id`, §2);
 * - §5.6: credentials in the URL are refused before anything else looks at the request;
 * - §5.4: a body holding anything shaped like a Secret Key (or an access
 *   token, or the control token) is refused, on
 *   every route and whatever the Content-Type (contract §2: 422, nothing
 *   issued or placed). It runs after authentication (the routes' onRequest).
 */
export function installRequestHooks(
  app: FastifyInstance,
  overrides: Partial<RequestCheckBehaviour> = {},
): void {
  const behave: RequestCheckBehaviour = { ...correctRequestChecks, ...overrides };
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
    if (app.ctx.guard.urlHoldsCredentials(behave.urlToCheck(request.url))) {
      throw credentialsInUrlProblem();
    }
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && announcesBody(request.raw)) {
      readBodilessMethodBody(request.raw).then((body) => {
        const held = app.ctx.guard.bodyCredential(body.toString('latin1'));
        done(
          held && !behave.overlooksSecretInBody(false) ? secretInBodyProblem('', held) : undefined,
        );
      }, done);
      return;
    }
    const body = request.body;
    if (body instanceof Buffer && body.length > 0) {
      const held = app.ctx.guard.bodyCredential(body.toString('latin1'));
      if (held && !behave.overlooksSecretInBody(request.routeOptions.config?.oauth === true)) {
        throw secretInBodyProblem('', held);
      }
    }
    done();
  });
}
