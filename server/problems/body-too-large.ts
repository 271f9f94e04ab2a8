import { BODY_LIMIT_BYTES } from '../config/api.js';
import { ApiProblem } from './api-problem.js';

/** §7 has no code for 413; validation_failed ("cannot be accepted as sent") is the closest. */
export function bodyTooLarge(): ApiProblem {
  return new ApiProblem(
    'validation_failed',
    `The request body is larger than the ${BODY_LIMIT_BYTES} bytes accepted.`,
    {
      status: 413,
      errors: [{ detail: `The body is over ${BODY_LIMIT_BYTES} bytes.`, pointer: '' }],
    },
  );
}
