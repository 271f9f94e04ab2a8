import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { pathOfUrl } from '../problems/body.js';
import { internalError } from '../problems/internal-error.js';
import { type FaultWhen, normalizeFaultPath } from './registry.js';

/**
 * Contract §3 faults: call at the point a request "reaches the operation"
 * (authenticated, in scope, valid). `before_commit` is called inside the
 * write transaction so its 500 rolls the work back; `after_commit` after the
 * commit, so the work stays stored and a retry must find it (§4 rule 6).
 */
export async function faultPoint(
  ctx: AppContext,
  request: FastifyRequest,
  accountId: string,
  when: FaultWhen,
): Promise<void> {
  const path = normalizeFaultPath(pathOfUrl(request.url));
  if (await ctx.faults.take(accountId, request.method, path, when)) {
    throw internalError(request.method, path);
  }
}

/** For reads, where nothing is committed: a fault of either kind answers 500. */
export async function readFaultPoint(
  ctx: AppContext,
  request: FastifyRequest,
  accountId: string,
): Promise<void> {
  await faultPoint(ctx, request, accountId, 'before_commit');
  await faultPoint(ctx, request, accountId, 'after_commit');
}
