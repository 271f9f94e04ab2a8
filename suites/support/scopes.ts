/** The four scopes of the API document's scope table (section 5). */
export const SCOPES = ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'] as const;
export type Scope = (typeof SCOPES)[number];

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), joined by single spaces. */
export const SCOPE_STRING = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** The scopes a granted `scope` string names; undefined when it is not a string. */
export function grantedScopes(scope: unknown): string[] | undefined {
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : undefined;
}

/** Two scope lists as sets, in a stable order for comparison and reports. */
export function sortedScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes)].sort();
}

/** A pattern of a space-separated list of exactly these scopes, in any order. */
export function exactlyThese(scopes: readonly string[]): string {
  const quoted = scopes.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const each = quoted.map((s) => `(?=(?:.* )?${s}(?: |$))`).join('');
  const one = `(?:${quoted.join('|')})`;
  return `^${each}${one}(?: ${one})*$`;
}
