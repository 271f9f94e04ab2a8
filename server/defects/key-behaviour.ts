import type { AppContext } from '../context.js';
import { type KeyBehaviour, keyBehaviour } from '../control/keys.js';
import { newAccessKeyId, newSecretKey } from '../domain/ids.js';
import { keepingTokens, rememberReplacedSecret } from './key-memory.js';
import { revokeAccountKeys } from './scope-too-wide.js';

/**
 * The key decisions (control/keys.ts `KeyBehaviour`) of a defective server:
 * the roll, revoke, probation and key-id defects. Plugged in as
 * `ctx.hooks.controlKeys` only when defects are on.
 */
export function defectiveKeyBehaviour(ctx: AppContext): Partial<KeyBehaviour> {
  const correct = keyBehaviour(ctx);
  const { hasDefect } = ctx;
  return {
    newKeyId: (mode) =>
      newAccessKeyId(mode === 'live' && hasDefect('live-key-ids-marked-test') ? 'test' : mode),
    roll: async (key, secret) => {
      const stored = hasDefect('roll-answers-wrong-secret') ? newSecretKey(key.mode) : secret;
      if (hasDefect('roll-keeps-old-secret')) rememberReplacedSecret(ctx, key.id, key.secretHash);
      if (hasDefect('roll-keeps-old-tokens'))
        await keepingTokens(ctx, key.id, () => correct.roll(key, stored));
      else await correct.roll(key, stored);
    },
    revoke: async (key) => {
      if (hasDefect('revoke-keeps-tokens'))
        await keepingTokens(ctx, key.id, () => correct.revoke(key));
      else await correct.revoke(key);
      if (hasDefect('revoke-revokes-account-keys')) await revokeAccountKeys(ctx.store, key);
    },
    endProbation: async (key) => {
      if (!hasDefect('end-probation-ignored')) await correct.endProbation(key);
    },
  };
}
