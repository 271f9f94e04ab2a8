import { serveThreadChannel, ThreadChannel } from '../client/thread-channel.js';
import type { CachedToken } from '../client/token-manager.js';
import type { Key } from '../client/types.js';
import type { RawExchange } from '../evidence/exchange.js';
import type { AccountSettings, TestAccount } from './types.js';

/**
 * Accounts made ahead for the checks. Most checks start with a row
 * of round trips before they can test anything: make an account, make a key
 * in it, then a token. Against a target far away the CLI's main thread makes
 * them ahead, with the settings the checks have been asking for, and hands
 * one over on request: the check finds its account, key and token made, and
 * records their exchanges as its own evidence, as if it had sent them itself
 * (the same requests, only sent earlier). The main thread revokes the keys of
 * those never handed over when the run ends.
 */

/** An account with the settings asked for, a key with the defaults and its token, and the exchanges that made them. */
export interface ReadyAccount {
  account: TestAccount;
  key: Key;
  /**
   * The key's access token, fetched ahead too: a check's first request to the API then
   * waits for no token request (a round trip saved per check on a far target).
   */
  token?: CachedToken;
  exchanges: RawExchange[];
}

/** Worker side, one per check file: asks the main thread for an account made ahead. */
export class ReadyAccountClient {
  readonly #channel: ThreadChannel;

  constructor(channelName: string) {
    this.#channel = new ThreadChannel(channelName);
  }

  /**
   * An account with these settings, made ahead, or undefined (none could be
   * made, or the file has ended: a check still running after it, in a run
   * stopped half-way): the check then makes its own.
   */
  take(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    return this.#channel.ask<ReadyAccount>(settings);
  }

  close(): void {
    this.#channel.close();
  }
}

/** Main-thread side: answers each request with `take(settings)`'s account. */
export function serveReadyAccounts(
  channelName: string,
  take: (settings: AccountSettings) => Promise<ReadyAccount | undefined>,
): { close(): void } {
  return serveThreadChannel(channelName, {
    ask: (settings) =>
      typeof settings === 'object' && settings !== null
        ? take(settings as AccountSettings)
        : undefined,
  });
}
