/** RFC 6901 JSON Pointer of a path: `["items", 0, "sku"]` → `/items/0/sku`. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}
