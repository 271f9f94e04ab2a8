import { BroadcastChannel } from 'node:worker_threads';
import type { Key } from '../client/types.js';
import type { RawExchange } from '../evidence/exchange.js';
import type { AccountSettings, TestAccount } from './types.js';

/**
 * Accounts made ahead for the checks (issue 27). Most checks start with a row
 * of round trips before they can test anything: make an account, make a key
 * in it (then a token). Against a target far away the CLI's main thread makes
 * them ahead, with the settings the checks have been asking for, and hands
 * one over on request: the check finds its account and key made, and records
 * their exchanges as its own evidence, as if it had sent them itself (the
 * same requests, only sent earlier). The main thread revokes the keys of
 * those never handed over when the run ends.
 */

/** An account with the settings asked for and a key with the defaults, and the exchanges that made them. */
export interface ReadyAccount {
  account: TestAccount;
  key: Key;
  exchanges: RawExchange[];
}

type Message =
  | { want: string; settings: AccountSettings }
  | { answer: string; ready?: ReadyAccount };

/** Worker side, one per check file: asks the main thread for an account made ahead. */
export class ReadyAccountClient {
  readonly #channel: BroadcastChannel;
  readonly #waiting = new Map<string, (ready: ReadyAccount | undefined) => void>();
  #next = 0;
  #closed = false;

  constructor(channelName: string) {
    this.#channel = new BroadcastChannel(channelName);
    this.#channel.onmessage = (event) => {
      const data = (event as MessageEvent).data as Partial<{ answer: string; ready: ReadyAccount }>;
      if (typeof data?.answer !== 'string') return;
      const resolve = this.#waiting.get(data.answer);
      if (!resolve) return;
      this.#waiting.delete(data.answer);
      this.#unrefWhenIdle();
      resolve(data.ready);
    };
    this.#unrefWhenIdle();
  }

  /** An account with these settings, made ahead, or undefined (none could be made): the check then makes its own. */
  take(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    // A check still running after its file ended (a run stopped half-way) makes its own.
    if (this.#closed) return Promise.resolve(undefined);
    const id = `${process.pid}:${Math.random()}:${this.#next++}`;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      (this.#channel as unknown as { ref?: () => void }).ref?.();
      this.#channel.postMessage({ want: id, settings } satisfies Message);
    });
  }

  close(): void {
    this.#closed = true;
    for (const resolve of this.#waiting.values()) resolve(undefined);
    this.#waiting.clear();
    this.#channel.close();
  }

  #unrefWhenIdle(): void {
    if (this.#waiting.size === 0) (this.#channel as unknown as { unref?: () => void }).unref?.();
  }
}

/** Main-thread side: answers each request with `take(settings)`'s account. */
export function serveReadyAccounts(
  channelName: string,
  take: (settings: AccountSettings) => Promise<ReadyAccount | undefined>,
): { close(): void } {
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = (event) => {
    const data = (event as MessageEvent).data as
      | Partial<{ want: string; settings: AccountSettings }>
      | undefined;
    if (typeof data?.want !== 'string' || typeof data.settings !== 'object') return;
    const id = data.want;
    void take(data.settings).then(
      (ready) => channel.postMessage({ answer: id, ...(ready ? { ready } : {}) } satisfies Message),
      () => channel.postMessage({ answer: id } satisfies Message),
    );
  };
  (channel as unknown as { unref?: () => void }).unref?.();
  return { close: () => channel.close() };
}
