import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';

/**
 * `token-form-body-ignored`: the token request's fields as a server that reads
 * only JSON sees them: a form body (the only kind §4 has) gives no fields.
 */
export function jsonOnlyForm(request: FastifyRequest): URLSearchParams {
  const body = request.body;
  const fields = new URLSearchParams();
  if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) {
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === 'string') fields.set(name, value);
    }
  }
  return fields;
}

/**
 * `token-age-from-first-token`: the issue time a new token is given when a key's
 * tokens are all aged from its first one (its earliest token still stored).
 */
export async function firstTokenIssuedAt(
  ctx: AppContext,
  keyId: string,
  now: number,
): Promise<number> {
  return (await ctx.store.wide.firstTokenIssuedAt(keyId)) ?? now;
}
