import { BlockList, isIP } from 'node:net';
import type { ApiKey } from '../store/keys.js';

/** `::ffff:10.0.0.1` (IPv4 seen through an IPv6 socket) is `10.0.0.1`. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** One allowlist entry: an address or a CIDR block; `undefined` when malformed. */
export function parseAllowlistEntry(
  entry: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = entry.split('/');
  if (rest.length > 0) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= max ? { address, prefix, family } : undefined;
}

const compiled = new WeakMap<ApiKey, BlockList>();

function blockListOf(key: ApiKey): BlockList {
  let list = compiled.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of key.ipAllowlist) {
      const parsed = parseAllowlistEntry(entry);
      if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    compiled.set(key, list);
  }
  return list;
}

/** §5.9: a key with an allowlist accepts calls only from its addresses. */
export function ipAllowed(key: ApiKey, ip: string): boolean {
  if (key.ipAllowlist.length === 0) return true;
  const address = normalizeIp(ip);
  const version = isIP(address);
  if (version === 0) return false;
  return blockListOf(key).check(address, version === 4 ? 'ipv4' : 'ipv6');
}
