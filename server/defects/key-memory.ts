import type { AppContext } from '../context.js';
import { secretMatches } from '../crypto/secret-hash.js';
import { appMemory } from './app-memory.js';

/**
 * Defects of roll and revoke (§3 API key) that need memory the correct server
 * never keeps: the Secret Keys a roll replaced, and the tokens a roll or
 * revoke dropped. Kept per app, so two servers in one process never share it.
 */
const replacedSecrets = appMemory(() => new Map<string, Buffer[]>());

/** `roll-keeps-old-secret`: remembers the digest a roll replaced. */
export function rememberReplacedSecret(ctx: AppContext, keyId: string, digest: Buffer): void {
  const byKey = replacedSecrets(ctx);
  byKey.set(keyId, [...(byKey.get(keyId) ?? []), digest]);
}

/** `roll-keeps-old-secret`: whether `secret` is one a roll of this key replaced. */
export function matchesReplacedSecret(ctx: AppContext, keyId: string, secret: string): boolean {
  return (replacedSecrets(ctx).get(keyId) ?? []).some((digest) => secretMatches(secret, digest));
}

/**
 * `roll-keeps-old-tokens`, `revoke-keeps-tokens`: runs a roll or revoke (which
 * drops the key's tokens) and puts the tokens back as they were.
 */
export async function keepingTokens<T>(
  ctx: AppContext,
  keyId: string,
  change: () => Promise<T>,
): Promise<T> {
  const rows = await ctx.store.wide.tokensOfKey(keyId);
  const result = await change();
  for (const row of rows)
    await ctx.store.tokens.insert(row.hash, row.key_id, row.scopes, row.issued_at);
  return result;
}
