import type { FastifyInstance } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import { refuseQuery } from '../http/query.js';
import { accountView } from '../views/account.js';

const money = {
  type: 'object',
  properties: { amount: { type: 'integer' }, currency: { type: 'string' } },
  required: ['amount', 'currency'],
} as const;

/** The shape of `accountView`, so that Fastify compiles a fast serializer for the hottest read. */
const accountResponse = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    object: { type: 'string' },
    name: { type: 'string' },
    livemode: { type: 'boolean' },
    billing_method: { type: 'string' },
    limits: {
      type: 'object',
      properties: { max_order_value: money, max_orders_per_day: { type: 'integer' } },
      required: ['max_order_value', 'max_orders_per_day'],
    },
    scopes: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'object', 'name', 'livemode', 'billing_method', 'limits', 'scopes'],
} as const;

/** §2 account, §4: `GET /account` needs any valid token, whatever its scopes (contract §2). */
export function accountRoutes(gate: TokenGate) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get(
      '/account',
      {
        onRequest: gate('account'),
        schema: { response: { 200: accountResponse } },
      },
      (request, reply) => {
        refuseQuery(request);
        reply.send(accountView(principalOf(request)));
      },
    );
  };
}
