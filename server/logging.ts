import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { clientAddress } from './http/client-address.js';
import { LogScrubber } from './http/log-scrub.js';
import type { Redactor } from './http/redact.js';

/**
 * Request logs go to stderr (stdout carries only the `listening` line) and
 * never hold a credential in any encoding (house rules: no secret in a log):
 * only method, scrubbed path and client address are logged, never headers,
 * bodies or query strings; error messages (which may quote the URL) are
 * scrubbed the same way (http/log-scrub.ts).
 */
export function loggerOptions(redactor: Redactor): NonNullable<FastifyServerOptions['logger']> {
  const scrub = new LogScrubber(redactor);
  return {
    level: 'info',
    stream: process.stderr,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: scrub.url(request.url),
        ip: clientAddress(request),
      }),
      err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
        type: error.name,
        ...(typeof error.code === 'string' ? { code: error.code } : {}),
        ...(typeof error.statusCode === 'number' ? { statusCode: error.statusCode } : {}),
        message: scrub.text(error.message),
        stack: scrub.text(error.stack ?? ''),
      }),
    },
  };
}
