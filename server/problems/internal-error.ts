import { ApiProblem } from './api-problem.js';

/**
 * §7 500 `internal_error`: "Retry with the same Idempotency-Key." The remedy
 * names the key only where a request carries one (POST /orders); elsewhere it
 * says to retry. It promises nothing about charges: after a fault that struck
 * after the commit (contract §3 `after_commit`) the order exists, and the
 * retry with the same key is what answers it, once.
 */
export function internalError(method: string, path: string): ApiProblem {
  const placesOrder = method === 'POST' && /\/orders\/?$/.test(path);
  return new ApiProblem(
    'internal_error',
    placesOrder
      ? 'The service failed while handling the request. Retry with the same Idempotency-Key: it answers the order if one was placed, and never places or charges a second.'
      : 'The service failed while handling the request. Retry the request later.',
  );
}
