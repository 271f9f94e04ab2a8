import { normalizeIp, parseAllowlistEntry } from '../auth/ip-allowlist.js';
import { CONTROL_BASE } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

/** §5 rule 9: IP allowlists. */
export const IP_DEFECTS = defectsOf('IP', [
  {
    name: 'ip-allowlist-ignored',
    breaks: "a key's IP allowlist is not enforced",
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) => gates({ ...key, ipAllowlist: [] }, account, ip),
      },
    }),
  },
  {
    name: 'ip-allowlist-ranges-ignored',
    breaks: 'allowlist CIDR ranges match only their first address',
    replaces: () => ({
      credentials: {
        // The allowlist read as plain addresses, each CIDR block matching only the address before its slash.
        keyGates: (gates) => (key, account, ip) => {
          const address = normalizeIp(ip);
          const listed =
            key.ipAllowlist.length === 0 ||
            key.ipAllowlist.some((entry) => (entry.split('/')[0] ?? '') === address);
          if (!listed) {
            throw new ApiProblem(
              'ip_not_allowed',
              'This key is limited to certain IP addresses and the call came from another.',
            );
          }
          gates({ ...key, ipAllowlist: [] }, account, ip);
        },
      },
    }),
  },
  {
    name: 'ip-allowlist-on-account',
    breaks: "an IP allowlist set on one key applies to the account's keys without one",
    replaces: () => {
      // Account id → the allowlist last set on one of its keys: kept on the account, as a server
      // that stores the operator's allowlist as an account setting would.
      const allowlists = new Map<string, string[]>();
      return {
        beforeHandler: (app) => {
          app.addHook('preHandler', async (request) => {
            if (
              request.method !== 'POST' ||
              request.routeOptions.url !== `${CONTROL_BASE}/accounts/:id/keys`
            )
              return;
            const list = allowlistIn(request.body);
            const { id } = request.params as { id: string };
            if (list.length > 0) allowlists.set(id, list);
          });
        },
        credentials: {
          keyGates: (gates) => (key, account, ip) => {
            const kept = allowlists.get(account.id);
            gates(
              key.ipAllowlist.length === 0 && kept ? { ...key, ipAllowlist: kept } : key,
              account,
              ip,
            );
          },
        },
      };
    },
  },
  {
    name: 'ip-allowlist-prefix-widened',
    breaks: 'an allowlist entry matches its whole IPv4 /16 or IPv6 /48, whatever prefix it gives',
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) =>
          gates({ ...key, ipAllowlist: key.ipAllowlist.map(widened) }, account, ip),
      },
    }),
  },
]);

/** An allowlist entry as a server that keeps only the first 16 (IPv4) or 48 (IPv6) bits reads it. */
function widened(entry: string): string {
  const parsed = parseAllowlistEntry(entry);
  if (!parsed) return entry;
  const widest = parsed.family === 'ipv4' ? 16 : 48;
  return `${parsed.address}/${Math.min(parsed.prefix, widest)}`;
}

/** The `ip_allowlist` of a control key body (contract §3), if it has one. */
function allowlistIn(body: unknown): string[] {
  try {
    const text = Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? {});
    const list = (JSON.parse(text) as { ip_allowlist?: unknown }).ip_allowlist;
    return Array.isArray(list)
      ? list.filter((entry): entry is string => typeof entry === 'string')
      : [];
  } catch {
    return [];
  }
}
