import type { FastifyServerOptions } from 'fastify';
import { redactUrl } from './http/credentials-in-url.js';

/**
 * Request logs go to stderr (stdout carries only the `listening` line) and
 * never hold a credential: only method, masked URL and peer are logged, never
 * headers or bodies (house rules: no secret in a log).
 */
export function loggerOptions(): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: 'info',
    stream: process.stderr,
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        ip: request.ip,
      }),
    },
  };
}
