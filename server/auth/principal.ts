import type { FastifyRequest } from 'fastify';
import type { Mode } from '../domain/modes.js';
import type { Account } from '../store/accounts.js';
import type { ApiKey } from '../store/keys.js';

/** Who is calling: the token's key, its account, the granted scopes, and the account clock's "now". */
export interface Principal {
  readonly account: Account;
  readonly key: ApiKey;
  readonly mode: Mode;
  readonly scopes: readonly string[];
  /** The account clock at the start of the request (contract §3). */
  readonly now: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The token endpoint: errors carry RFC 6749 `error` and are never cached. */
    oauth?: boolean;
  }
}

/** The principal a route's onRequest hook set; a route without one is a bug of ours. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null)
    throw new Error('route is missing its token gate (auth/bearer.ts)');
  return request.principal;
}
