/** RFC 6901 JSON pointers over plain JSON values, for the dialect layer's moves. */

export type Json = unknown;
type JsonObject = Record<string, unknown>;

const cache = new Map<string, readonly string[]>();

/** `/a/b~1c` → `['a', 'b/c']` (cached: the dialect's pointers are few and fixed). */
export function tokens(pointer: string): readonly string[] {
  let parsed = cache.get(pointer);
  if (parsed === undefined) {
    parsed =
      pointer === ''
        ? []
        : pointer
            .slice(1)
            .split('/')
            .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    cache.set(pointer, parsed);
  }
  return parsed;
}

export function toPointer(path: readonly (string | number)[]): string {
  return path.map((t) => `/${String(t).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `pointer`, or undefined. */
export function get(root: Json, pointer: string): Json {
  let value = root;
  for (const token of tokens(pointer)) {
    if (Array.isArray(value)) value = /^\d+$/.test(token) ? value[Number(token)] : undefined;
    else if (isObject(value)) value = Object.hasOwn(value, token) ? value[token] : undefined;
    else return undefined;
  }
  return value;
}

/** Sets `value` at `pointer` in the object `root`, making the objects on the way. */
export function set(root: JsonObject, pointer: string, value: Json): void {
  const path = tokens(pointer);
  let at: JsonObject = root;
  for (const token of path.slice(0, -1)) {
    const next = at[token];
    if (isObject(next)) at = next;
    else {
      const made: JsonObject = {};
      at[token] = made;
      at = made;
    }
  }
  const last = path.at(-1);
  if (last !== undefined) at[last] = value;
}

/** Removes the member at `pointer` (and the objects it leaves empty); answers what was there. */
export function take(root: JsonObject, pointer: string): Json {
  const path = tokens(pointer);
  const parents: JsonObject[] = [];
  let at: JsonObject = root;
  for (const token of path.slice(0, -1)) {
    const next = at[token];
    if (!isObject(next)) return undefined;
    parents.push(at);
    at = next;
  }
  const last = path.at(-1);
  if (last === undefined || !Object.hasOwn(at, last)) return undefined;
  const value = at[last];
  delete at[last];
  for (let i = parents.length - 1; i >= 0; i--) {
    const parent = parents[i] as JsonObject;
    const key = path[i] as string;
    if (isObject(parent[key]) && Object.keys(parent[key] as JsonObject).length === 0)
      delete parent[key];
    else break;
  }
  return value;
}

/** A pointer in the dialect's form: `/items/0/sku`, `items.0.sku` or `items[0].sku`. */
export function formatPointer(pointer: string, form: 'json-pointer' | 'dot' | 'bracket'): string {
  if (form === 'json-pointer' || !pointer.startsWith('/')) return pointer;
  const path = tokens(pointer);
  if (form === 'dot') return path.join('.');
  let out = '';
  for (const token of path) {
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else out += out === '' ? token : `.${token}`;
  }
  return out;
}
