/**
 * Finding what `GET /account` shows. Section 2 of the API document says
 * what the account shows (whether the key is live, the billing method, the
 * limits under the object `limits`, the key's scopes) but not under which
 * names: the profile's names (reference dialect by default) are looked at
 * first; when the value is not there, the body is searched for a field that
 * carries it, so a target with names of its own still conforms (its names
 * are READ-06's business, a DIALECT rule).
 */

import type { MoneyFormat } from '../../lib/check/index.js';
import { centsIn, escapeToken, valueAt } from '../../lib/check/index.js';

export { valueAt };

/** Every field of the object and of the objects inside it (two levels), as pointer and value. */
function fields(body: unknown, prefix = '', depth = 2): { pointer: string; value: unknown }[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || depth === 0) return [];
  const found: { pointer: string; value: unknown }[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const pointer = `${prefix}/${escapeToken(name)}`;
    found.push({ pointer, value }, ...fields(value, pointer, depth - 1));
  }
  return found;
}

/**
 * Where the body shows what `holds` accepts: the profile's pointer when it
 * does, else the first field that does (undefined: nowhere).
 */
export function locate(
  bodies: readonly unknown[],
  profilePointer: string,
  holds: (values: unknown[]) => boolean,
  under = '',
): string | undefined {
  if (holds(bodies.map((body) => valueAt(body, profilePointer)))) return profilePointer;
  const first = bodies[0];
  const candidates = fields(under ? valueAt(first, under) : first, under).map((f) => f.pointer);
  return candidates.find((pointer) => holds(bodies.map((body) => valueAt(body, pointer))));
}

/**
 * Whether a value shows this amount of money: in the profile's format first,
 * else as integer cents, a number or decimal string of dollars, or an object
 * holding one of those. A distinctive amount (READ-02 sets its own) cannot be
 * matched by chance, so reading the other formats fails no legal server.
 */
export function showsCents(money: MoneyFormat, value: unknown, cents: number): boolean {
  if (centsIn(money, value) === cents) return true;
  const dollars = cents / 100;
  const plain = (v: unknown) =>
    v === cents ||
    v === dollars ||
    (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) && Number(v) === dollars);
  if (plain(value)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some((v) => plain(v));
}

/** Scopes shown as an array or a space-separated string, sorted; undefined if neither. */
export function scopeSet(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return [...value].sort();
  if (typeof value === 'string') return value.split(' ').filter(Boolean).sort();
  return undefined;
}
