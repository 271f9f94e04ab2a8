/**
 * JSON text with object keys sorted and no white space. Contract §2 readings:
 * "the same request, for a replay, means the same method, path and JSON body
 * up to key order and white space", so two bodies are the same request when
 * their canonical texts are equal. Callers bound the depth first
 * (validation/json-depth.ts), so the recursion cannot overflow the stack.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${parts.join(',')}}`;
}
