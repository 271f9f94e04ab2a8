import type { Caller, Session } from '../client/session.js';
import type { ReadyAccount } from '../control/ready-accounts.js';
import type { AccountSettings } from '../control/types.js';
import type { RawExchange } from '../evidence/exchange.js';

/**
 * The main thread's accounts made ahead (lib/control/ready-accounts.ts), by
 * the settings the checks ask for: once checks asked for some settings
 * again, accounts with them are kept made or under way, one fewer than they
 * were asked for so far, `each` at most, and `most` of all settings together;
 * each one taken is replaced at once. Settings asked for once cost nothing,
 * and the common ones are ready when the next check file starts. Once the
 * last file has started (`stopMaking`) none is made ahead any more; `close`
 * revokes the keys of those never taken (`most` at most).
 */
export class AccountsAhead {
  readonly #session: Session;
  readonly #each: number;
  readonly #most: number;
  readonly #ahead = new Map<string, { asked: number; made: Promise<ReadyAccount | undefined>[] }>();
  #closed = false;
  #making = true;

  constructor(session: Session, limits: { each: number; most: number }) {
    this.#session = session;
    this.#each = limits.each;
    this.#most = limits.most;
  }

  /** The oldest one with these settings (made, or under way); undefined if it could not be made or the run is over. */
  take(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    const id = JSON.stringify(settings);
    const ahead = this.#ahead.get(id) ?? { asked: 0, made: [] };
    this.#ahead.set(id, ahead);
    ahead.asked += 1;
    const next = ahead.made.shift() ?? this.#make(settings);
    while (
      this.#making &&
      ahead.made.length < Math.min(ahead.asked - 1, this.#each) &&
      this.#madeAhead() < this.#most
    )
      ahead.made.push(this.#make(settings));
    return next;
  }

  #madeAhead(): number {
    let count = 0;
    for (const { made } of this.#ahead.values()) count += made.length;
    return count;
  }

  /** The last check file has started: what is made already is handed out, nothing more is made ahead. */
  stopMaking(): void {
    this.#making = false;
  }

  /** No more: the keys of the accounts never taken are revoked (clean-up, failures ignored). */
  async close(): Promise<void> {
    this.#closed = true;
    const left = [...this.#ahead.values()].flatMap((ahead) => ahead.made.splice(0));
    await Promise.all(
      left.map(async (made) => {
        const ready = await made;
        if (ready) await this.#session.control.revokeKey(ready.key).catch(() => undefined);
      }),
    );
  }

  /** An account and its key, with the raw exchanges that made them (the taker records them). */
  async #make(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    const exchanges: RawExchange[] = [];
    const caller: Caller = {
      recorder: {
        // Their evidence ids are given when the check that takes the account records them.
        record: (raw) => {
          exchanges.push(raw);
          return 0;
        },
        pin: () => {},
      },
      note: () => {},
      provokes429: false,
    };
    const control = this.#session.controlFor(caller);
    try {
      const account = await control.createAccount(structuredClone(settings));
      const key = await control.createKey(account.id, {});
      return { account, key, exchanges };
    } catch {
      // The check asking for it makes its own, and meets whatever went wrong itself.
      return undefined;
    }
  }
}
