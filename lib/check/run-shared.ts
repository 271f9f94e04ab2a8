import { KeyPacer } from '../client/key-pacer.js';
import type { CachedToken } from '../client/token-manager.js';
import { announceWait } from '../client/wait-channel.js';
import type { Key } from './context.js';

/**
 * State shared by every check file in one worker. With the control API the
 * runner isolates files (each has its own account, so nothing needs sharing);
 * in partner mode it runs files one after another in a single worker without
 * isolation, so this is the whole run's: one pacer and one token cache for
 * the one partner key, whose rate limits every check shares.
 */
export const runShared = {
  pacer: new KeyPacer(undefined, undefined, (ms, keyId, kind) =>
    announceWait({ what: `the ${kind} window of key ${keyId}`, ms }),
  ),
  tokens: new Map<string, Promise<CachedToken>>(),
  /** Tokens of the partner key: requests carrying them are paced. */
  partnerTokens: new Set<string>(),
  /** The partner key, one object for the run: scopes learned from its first token serve every file. */
  partnerKey: undefined as Key | undefined,
};
