/** §5 Scopes: the four scopes a key or token can carry. */
export const SCOPES = ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
