import { StoreUnavailableError } from '../store/store.js';
import { ApiProblem } from './api-problem.js';
import { bodyTooLarge } from './body-too-large.js';
import { internalError } from './internal-error.js';

/**
 * Every error a request can raise, as an API problem. Fastify's own errors
 * (unreadable body, body too large, bad media type, bad URL) get documented
 * codes (§7), never a 500; anything else is a fault of ours: 500
 * `internal_error`, with no stack trace in the answer.
 */
export function toProblem(error: unknown, method: string, path: string): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (error instanceof StoreUnavailableError) {
    // docs/sandbox.md: a database outage answers 503; no write was acknowledged.
    return new ApiProblem(
      'api_unavailable',
      'The service cannot reach its database just now. Retry in a few seconds.',
      { headers: { 'retry-after': '5' } },
    );
  }
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiProblem(
        'unsupported_media_type',
        'The Content-Type header is not a valid media type; send application/json.',
      );
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiProblem('not_found', 'The path names no resource (it cannot be decoded).');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      // Framing (RFC 9112 §6.3), not content: the HTTP layer's 400.
      return new ApiProblem('bad_request', 'The request body does not match its Content-Length.');
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new ApiProblem('validation_failed', 'The request could not be read as sent.', {
      errors: [{ detail: 'The request is malformed.', pointer: '' }],
    });
  }
  return internalError(method, path);
}
