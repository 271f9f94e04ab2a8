import { BODY_LIMIT_BYTES } from '../config/api.js';
import { ApiProblem } from './api-problem.js';

/** A body over the limit is refused before it is read: 413 (RFC 9110 §15.5.14), a code of the HTTP layer. */
export function bodyTooLarge(): ApiProblem {
  return new ApiProblem(
    'content_too_large',
    `The request body is larger than the ${BODY_LIMIT_BYTES} bytes accepted.`,
  );
}
