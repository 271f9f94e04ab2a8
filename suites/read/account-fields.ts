/**
 * Finding what `GET /account` shows. Section 2 of the API document says
 * what the account shows (whether the key is live, the billing method, the
 * limits under the object `limits`, the key's scopes) but not under which
 * names: the profile's names (reference dialect by default) are looked at
 * first; when the value is not there, the body is searched for a field that
 * carries it, so a target with names of its own still conforms (its names
 * are READ-06's business, a DIALECT rule).
 */

/** The value at a JSON pointer (RFC 6901) into a parsed body. */
export function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Every field of the object and of the objects inside it (two levels), as pointer and value. */
export function fields(
  body: unknown,
  prefix = '',
  depth = 2,
): { pointer: string; value: unknown }[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || depth === 0) return [];
  const found: { pointer: string; value: unknown }[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const pointer = `${prefix}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
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

/** Money per contract section 2 (`{amount, currency}`), or a bare integer of cents. */
export function centsOf(value: unknown): unknown {
  const amount = (value as { amount?: unknown } | undefined)?.amount;
  return typeof value === 'number' ? value : amount;
}

/** Scopes shown as an array or a space-separated string, sorted; undefined if neither. */
export function scopeSet(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return [...value].sort();
  if (typeof value === 'string') return value.split(' ').filter(Boolean).sort();
  return undefined;
}
