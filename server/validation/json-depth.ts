/**
 * True when a parsed JSON value nests deeper than `max`. Bounded by `max`
 * itself, so a hostile body nested 100,000 levels deep cannot overflow the
 * stack here or in code that walks the value afterwards.
 */
export function exceedsDepth(value: unknown, max: number, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= max) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    if (exceedsDepth(child, max, depth + 1)) return true;
  }
  return false;
}
