import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** An address as the API reports it (control `whoami`), without an IPv6 zone. */
function plain(ip: string): string {
  return ip.split('%')[0] ?? ip;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`), if it is one. */
function mappedV4(ip: string): string | undefined {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return match?.[1];
}

/** The eight 16-bit groups of an IPv6 address. */
function groups(ip: string): number[] {
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  let text = ip;
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = `${ip.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(zeros).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * Allowlist entries holding exactly the caller's address (`/32`, `/128`). An
 * IPv4-mapped IPv6 address is given in both notations, since a target may
 * see the caller either way.
 */
export function hostEntries(ip: string): string[] {
  const address = plain(ip);
  if (isIPv4(address)) return [`${address}/32`];
  const v4 = mappedV4(address);
  return v4 ? [`${address}/128`, `${v4}/32`] : [`${address}/128`];
}

/** Allowlist entries of a range around the caller: its IPv4 /24 or IPv6 /64 network. */
export function networkEntries(ip: string): string[] {
  const address = plain(ip);
  const v4Network = (v4: string) => `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv4(address)) return [v4Network(address)];
  const v4 = mappedV4(address);
  if (v4) return [`::ffff:${v4.split('.').slice(0, 3).join('.')}.0/120`, v4Network(v4)];
  const g = groups(address);
  const prefix = g
    .slice(0, 4)
    .map((n) => n.toString(16))
    .join(':');
  return [`${prefix}::/64`];
}

/** One step away from `n` within 0..max: up, or down at the top. */
function beside(n: number, max: number): number {
  return n < max ? n + 1 : n - 1;
}

/** An IPv4 address with its last (`at` 3) or third (`at` 2) byte moved one step. */
function v4Beside(v4: string, at: 2 | 3): string[] {
  const bytes = v4.split('.').map(Number);
  bytes[at] = beside(bytes[at] ?? 0, 255);
  return bytes.map(String);
}

/**
 * Allowlist entries of exactly one address beside the caller's (the next one,
 * `/32` or `/128`): the caller is just outside. As `hostEntries`, an
 * IPv4-mapped address is given in both notations.
 */
export function neighbourHostEntries(ip: string): string[] {
  const address = plain(ip);
  const v4 = isIPv4(address) ? address : mappedV4(address);
  if (v4) {
    const next = v4Beside(v4, 3).join('.');
    return isIPv4(address) ? [`${next}/32`] : [`::ffff:${next}/128`, `${next}/32`];
  }
  const g = groups(address);
  g[7] = beside(g[7] ?? 0, 0xffff);
  return [`${g.map((n) => n.toString(16)).join(':')}/128`];
}

/**
 * Allowlist entries of the network beside the caller's (the next IPv4 /24,
 * the next IPv6 /64): every address of it shares all but one bit of the
 * caller's prefix, and the caller is outside.
 */
export function neighbourNetworkEntries(ip: string): string[] {
  const address = plain(ip);
  const v4 = isIPv4(address) ? address : mappedV4(address);
  if (v4) {
    const net = `${v4Beside(v4, 2).slice(0, 3).join('.')}.0`;
    return isIPv4(address) ? [`${net}/24`] : [`::ffff:${net}/120`, `${net}/24`];
  }
  const g = groups(address);
  g[3] = beside(g[3] ?? 0, 0xffff);
  return [
    `${g
      .slice(0, 4)
      .map((n) => n.toString(16))
      .join(':')}::/64`,
  ];
}

/** Documentation ranges (RFC 5737, RFC 3849): no real caller is ever in them. */
export const DOCUMENTATION_RANGES = ['192.0.2.0/24', '198.51.100.0/24', '2001:db8::/32'];

/** Whether an address is in the documentation ranges (then a check must pick another allowlist). */
export function inDocumentationRanges(ip: string): boolean {
  const list = new BlockList();
  list.addSubnet('192.0.2.0', 24, 'ipv4');
  list.addSubnet('198.51.100.0', 24, 'ipv4');
  list.addSubnet('2001:db8::', 32, 'ipv6');
  const address = plain(ip);
  if (isIPv4(address)) return list.check(address, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}
