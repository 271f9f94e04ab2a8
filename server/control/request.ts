import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { readJsonBody } from '../http/body.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import { parseBody } from '../validation/order-body.js';

/** A control body: JSON (contract §3), and none at all counts as `{}` (every setting is optional). */
export function controlBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.infer<S> {
  const raw = request.body;
  const empty = raw === undefined || (raw instanceof Buffer && raw.length === 0);
  return parseBody(schema, empty ? {} : readJsonBody(request));
}

export async function accountOr404(ctx: AppContext, id: string): Promise<Account> {
  const account = await ctx.store.accounts.get(id);
  if (!account) throw new ApiProblem('not_found', 'No account with this id.');
  return account;
}
