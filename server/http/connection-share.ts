import type { Server } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { normalizeIp, parseAllowlistEntry } from '../auth/ip-allowlist.js';

/**
 * A per-address share of the connection cap (docs/sandbox.md, "Connections"):
 * one client address holds at most `perAddress` connections at once; more
 * from it are closed on arrival, so a client holding hundreds of idle
 * connections leaves the other slots (and `/healthz`) to everyone else.
 * Trusted proxies are exempt: their connections carry every client's
 * requests, and the balancer is where those clients' shares are kept.
 */
export function installConnectionShare(
  server: Server,
  perAddress: number,
  trustedProxies: readonly string[] = [],
): void {
  const trusted = addressSet(trustedProxies);
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = normalizeIp(socket.remoteAddress ?? '');
    if (isTrusted(trusted, address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** Addresses and CIDR blocks as one set; entries that are neither are skipped (the CLI refuses them). */
function addressSet(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseAllowlistEntry(entry);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
