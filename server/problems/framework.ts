import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../domain/ids.js';
import { credentialsInUrlProblem } from '../http/credentials-in-url.js';
import type { Redactor } from '../http/redact.js';
import { ApiProblem } from './api-problem.js';
import { PROBLEM_CONTENT_TYPE, pathOfUrl, problemBody } from './body.js';
import type { HttpCode } from './codes.js';
import { sendProblem } from './send.js';
import { toProblem } from './to-problem.js';

/**
 * Fastify's `frameworkErrors` option: URLs the router cannot decode answer
 * problem+json too. Such a URL never reaches the request hooks, so the §5.6
 * refusal of credentials in it is made here as well: it comes first.
 */
export function frameworkErrorHandler(docsUrl: string) {
  return (error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    const problem = request.server.ctx.guard.urlHoldsCredentials(request.url)
      ? credentialsInUrlProblem()
      : toProblem(error, request.method, pathOfUrl(request.url));
    sendProblem(request, reply, problem, docsUrl);
  };
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser rejects before
 * any route runs (headers or URL too long, malformed request line, ambiguous
 * framing, too slow) still get problem+json, with the status HTTP has the
 * server send and a code of the HTTP layer (codes.ts), then the connection
 * is closed.
 */
export function clientErrorHandler(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let code: HttpCode = 'bad_request';
    let reason = 'Bad Request';
    let detail = 'The request is not valid HTTP.';
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      code = 'request_header_fields_too_large';
      reason = 'Request Header Fields Too Large';
      detail = 'The request line and headers are too long.';
    } else if (
      error.code === 'HPE_UNEXPECTED_CONTENT_LENGTH' ||
      error.code === 'HPE_INVALID_TRANSFER_ENCODING'
    ) {
      detail =
        'The request framing is ambiguous (Content-Length and Transfer-Encoding, RFC 9112 §6.3).';
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      code = 'request_timeout';
      reason = 'Request Timeout';
      detail = 'The request was not received in time.';
    }
    const problem = new ApiProblem(code, detail);
    const status = problem.status;
    const requestId = newId('req');
    // The request line could not be parsed, so its path is unknown: `instance` is the root.
    const body = JSON.stringify(
      problemBody(problem, { docsUrl, instance: '/', requestId, oauth: false }),
    );
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
          `Request-Id: ${requestId}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/**
 * Node's 'checkExpectation': an `Expect` other than `100-continue` is 417
 * (RFC 9110 §10.1.1), as problem+json instead of Node's empty answer.
 */
export function answerUnknownExpectation(docsUrl: string, redactor: Redactor) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const problem = new ApiProblem('expectation_failed', 'Only Expect: 100-continue is supported.');
    const requestId = newId('req');
    const body = JSON.stringify(
      problemBody(problem, {
        docsUrl,
        instance: redactor.text(pathOfUrl(request.url ?? '/')),
        requestId,
        oauth: false,
      }),
    );
    response.writeHead(417, {
      'content-type': PROBLEM_CONTENT_TYPE,
      'request-id': requestId,
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
    request.resume();
  };
}

/**
 * Node's 'connect': a CONNECT request never reaches the router, and without
 * this listener Node closes its connection with no answer at all. The
 * reference is no proxy: 404 `not_found` as problem+json like any unknown
 * method, then the connection is closed.
 */
export function answerConnect(docsUrl: string, redactor: Redactor) {
  return (request: IncomingMessage, socket: Socket): void => {
    const target = request.url ?? '/';
    const problem = new ApiProblem('not_found', 'The server does not serve CONNECT requests.');
    const requestId = newId('req');
    const body = JSON.stringify(
      problemBody(problem, {
        docsUrl,
        // An authority-form target (`host:port`) is no path: `instance` is then the root.
        instance: target.startsWith('/') ? redactor.text(pathOfUrl(target)) : '/',
        requestId,
        oauth: false,
      }),
    );
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 404 Not Found\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
          `Request-Id: ${requestId}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroySoon();
  };
}
