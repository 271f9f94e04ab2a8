import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../problems/api-problem.js';
import { type BodyCredential, secretInBodyProblem } from '../validation/secret-in-body.js';
import { announcesBody, readBodilessMethodBody } from './bodiless-method-body.js';
import type { CredentialGuard } from './credential-guard.js';
import { credentialsInUrlProblem } from './credentials-in-url.js';

/**
 * The two credential checks every API request goes through (server/behaviour.ts
 * part `requestChecks`); `correctRequestChecks` is the reference's.
 */
export interface RequestCheckBehaviour {
  /** §5.6: whether the request's URL carries credentials. */
  urlHoldsCredentials(url: string): boolean;
  /** §5.4: the credential the body of `request` holds (its text `body`), if any. */
  bodyCredential(body: string, request: FastifyRequest): BodyCredential | undefined;
}

export function correctRequestChecks(guard: CredentialGuard): RequestCheckBehaviour {
  return {
    urlHoldsCredentials: (url) => guard.urlHoldsCredentials(url),
    bodyCredential: (body) => guard.bodyCredential(body),
  };
}

/**
 * Hooks every API request runs, unknown routes included:
 * - the `Request-Id` header (the same id as a problem's `request_id`, §2);
 * - §5.6: credentials in the URL are refused before anything else looks at the request;
 * - §5.4: a body holding anything shaped like a Secret Key (or an access
 *   token, or the control token) is refused, on
 *   every route and whatever the Content-Type (contract §2: 422, nothing
 *   issued or placed). It runs after authentication (the routes' onRequest).
 */
export function installRequestHooks(app: FastifyInstance, behave: RequestCheckBehaviour): void {
  // Callback-style hooks (no promise per request): a throw is caught by Fastify's hook runner.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id);
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is 400 (Node's own check would answer an empty body).
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new ApiProblem(
        'bad_request',
        'An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).',
      );
    }
    if (behave.urlHoldsCredentials(request.url)) {
      throw credentialsInUrlProblem();
    }
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && announcesBody(request.raw)) {
      readBodilessMethodBody(request.raw).then((body) => {
        const held = behave.bodyCredential(body.toString('latin1'), request);
        done(held ? secretInBodyProblem('', held) : undefined);
      }, done);
      return;
    }
    const body = request.body;
    if (body instanceof Buffer && body.length > 0) {
      const held = behave.bodyCredential(body.toString('latin1'), request);
      if (held) throw secretInBodyProblem('', held);
    }
    done();
  });
}
