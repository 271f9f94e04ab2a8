import type { FastifyInstance } from 'fastify';
import { clientAddress } from '../http/client-address.js';

/**
 * Contract §3: the nine features, and `charges`, an addition (docs/contract-additions.md:
 * `GET /accounts/{id}/charges`); the reference supports them all.
 */
export const FEATURES = [
  'accounts',
  'keys',
  'clock',
  'production',
  'shipping',
  'service_state',
  'faults',
  'payments',
  'whoami',
  'charges',
] as const;

/** Contract §3 `GET /capabilities` and `GET /whoami` (the caller's address as the API sees it, §5.9). */
export async function capabilityRoutes(app: FastifyInstance): Promise<void> {
  app.get('/capabilities', async () => ({ protocol: '1', features: [...FEATURES] }));
  app.get('/whoami', async (request) => ({ ip: clientAddress(request) }));
}
