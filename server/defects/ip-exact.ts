import { normalizeIp } from '../auth/ip-allowlist.js';
import type { ApiKey } from '../store/keys.js';

/**
 * `ip-allowlist-ranges-ignored`: the allowlist read as plain addresses, each
 * CIDR block matching only the address written before its slash (§5.9).
 */
export function ipListedExactly(key: ApiKey, ip: string): boolean {
  if (key.ipAllowlist.length === 0) return true;
  const address = normalizeIp(ip);
  return key.ipAllowlist.some((entry) => (entry.split('/')[0] ?? '') === address);
}
