import type { FastifyReply } from 'fastify';
import { RATE_WINDOW_MS } from '../config/api.js';
import type { RateClass, RateDecision } from './rate-limiter.js';

/**
 * IETF httpapi RateLimit header fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "write";q=60;w=60` and `RateLimit: "write";r=12;t=41`
 * (quota, window; remaining, seconds to reset), beside `Retry-After` on 429.
 */
export function setRateLimitHeaders(
  reply: FastifyReply,
  rateClass: RateClass,
  decision: RateDecision,
): void {
  reply.header('ratelimit-policy', `"${rateClass}";q=${decision.limit};w=${RATE_WINDOW_MS / 1000}`);
  reply.header('ratelimit', `"${rateClass}";r=${decision.remaining};t=${decision.resetSeconds}`);
}
