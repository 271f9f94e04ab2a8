import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { digestsEqual, hashSecret } from '../crypto/secret-hash.js';
import { ApiProblem } from '../problems/api-problem.js';
import { sendProblem } from '../problems/send.js';
import { controlAccountRoutes } from './accounts.js';
import { capabilityRoutes } from './capabilities.js';
import { controlChargeRoutes } from './charges.js';
import { controlFaultRoutes } from './faults.js';
import { controlFulfilmentRoutes } from './fulfilment.js';
import { controlKeyRoutes, type KeyBehaviour } from './keys.js';

/**
 * Contract §3 control protocol, mounted at `/__control` only when a control
 * token is configured. Every request carries `X-Control-Token`; a wrong or
 * missing one gets 401 (compared in constant time), unknown control paths
 * included, so the routes are not discoverable without the token.
 */
export function controlPlugin(ctx: AppContext, controlToken: string, keys: KeyBehaviour) {
  const expected = hashSecret(controlToken);
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (request) => {
      const given = request.headers['x-control-token'];
      if (typeof given !== 'string' || !digestsEqual(hashSecret(given), expected)) {
        throw new ApiProblem(
          'unauthorized',
          'Send the control token in the X-Control-Token header.',
        );
      }
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(
        request,
        reply,
        new ApiProblem('not_found', 'No such control route.'),
        ctx.docsUrl,
      ),
    );
    await app.register(capabilityRoutes);
    await app.register(controlAccountRoutes(ctx));
    await app.register(controlKeyRoutes(ctx, keys));
    await app.register(controlFulfilmentRoutes(ctx));
    await app.register(controlFaultRoutes(ctx));
    await app.register(controlChargeRoutes(ctx));
  };
}
