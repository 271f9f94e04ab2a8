import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { newId } from '../domain/ids.js';
import { normalizeFaultPath } from '../faults/registry.js';
import { accountOr404, controlBody } from './request.js';

const FaultBodySchema = z.strictObject({
  method: z
    .string()
    .regex(/^[A-Za-z]{3,7}$/, 'must be an HTTP method')
    .transform((m) => m.toUpperCase()),
  path: z.string().min(1).max(2048).startsWith('/'),
  status: z.literal(500).optional(),
  when: z.enum(['before_commit', 'after_commit']).optional(),
  times: z.number().int().min(1).max(1000).optional(),
});

/**
 * Contract §3 `POST /accounts/{id}/faults`: the next `times` requests of this
 * account matching method and path (relative to the API base, or with it)
 * that reach the operation answer 500 `internal_error`.
 */
export function controlFaultRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post<{ Params: { id: string } }>('/accounts/:id/faults', async (request, reply) => {
      const account = await accountOr404(ctx, request.params.id);
      const input = controlBody(request, FaultBodySchema);
      const fault = {
        id: newId('flt'),
        method: input.method,
        path: normalizeFaultPath(input.path),
        status: 500 as const,
        when: input.when ?? 'before_commit',
        remaining: input.times ?? 1,
      };
      await ctx.faults.add(account.id, fault);
      return reply.code(201).send({
        id: fault.id,
        method: fault.method,
        path: fault.path,
        status: fault.status,
        when: fault.when,
        times: fault.remaining,
      });
    });
  };
}
