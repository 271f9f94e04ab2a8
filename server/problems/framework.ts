import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../domain/ids.js';
import { ApiProblem } from './api-problem.js';
import { PROBLEM_CONTENT_TYPE, problemBody } from './body.js';
import { sendProblem } from './send.js';
import { toProblem } from './to-problem.js';

/** Fastify's `frameworkErrors` option: URLs the router cannot decode answer problem+json too. */
export function frameworkErrorHandler(docsUrl: string) {
  return (error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    sendProblem(request, reply, toProblem(error), docsUrl);
  };
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser rejects before
 * any route runs (headers or URL too long, malformed request line) still get
 * problem+json with a documented code, then the connection is closed.
 */
export function clientErrorHandler(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let reason = 'Bad Request';
    let detail = 'The request is not valid HTTP.';
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      reason = 'Request Header Fields Too Large';
      detail = 'The request line and headers are too long.';
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      reason = 'Request Timeout';
      detail = 'The request was not received in time.';
    }
    const problem = new ApiProblem('validation_failed', detail, { status });
    const body = JSON.stringify(
      problemBody(problem, { docsUrl, instance: '/', requestId: newId('req'), oauth: false }),
    );
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
