import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { normalizeIp } from '../auth/ip-allowlist.js';

/**
 * The address a request came from: the socket's, or behind trusted proxies
 * (`trustProxy`) the nearest `X-Forwarded-For` entry no trusted proxy added.
 * Fastify (proxy-addr) takes that entry as it is, so `X-Forwarded-For:
 * garbage` would make "garbage" the client; an entry that is no IP address
 * says nothing of the client, and the address of the hop that passed it on
 * is kept instead. IP allowlists, failed-login limits, the log and
 * `/whoami` all read it here.
 */
export function clientAddress(request: FastifyRequest): string {
  const chain = request.ips ?? [request.ip];
  for (let i = chain.length - 1; i >= 0; i--) {
    const address = chain[i];
    if (address !== undefined && isIP(address) !== 0) return normalizeIp(address);
  }
  return normalizeIp(request.socket.remoteAddress ?? '');
}
