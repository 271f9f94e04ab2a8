import type { CheckContext, Key } from '../../lib/check/index.js';
import { grantedScopes } from './scopes.js';
import { requestToken } from './token-request.js';

/**
 * The scopes a key holds. A key made through the control API says so itself;
 * the partner key's are learned from a token response (section 2: `scope`
 * lists the granted scopes) and remembered on the key. The engine learns
 * them when it fetches a token, but a token it had cached for another file
 * teaches nothing, so then one token request is made here.
 */
export async function keyScopes(ctx: CheckContext, key: Key): Promise<string[]> {
  if (key.scopes.length > 0) return key.scopes;
  await ctx.token(key);
  if (key.scopes.length > 0) return key.scopes;
  const res = await requestToken(ctx, key);
  const granted = grantedScopes((res.json as { scope?: unknown } | undefined)?.scope) ?? [];
  if (key.scopes.length === 0) key.scopes.push(...granted);
  return key.scopes;
}
