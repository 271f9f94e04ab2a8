import type { Caller, Session } from '../client/session.js';
import type { ReadyAccount } from '../control/ready-accounts.js';
import type { AccountSettings } from '../control/types.js';
import type { RawExchange } from '../evidence/exchange.js';
import { settingsOf } from '../plan/ahead-forecast.js';

/** How many accounts to keep made ahead, and of which settings. */
export interface AheadLimits {
  /** Without a forecast: of one settings at most. */
  each: number;
  /** Made ahead and not yet taken, of all settings together, at most. */
  most: number;
  /**
   * The settings the last run of the same shape asked for, in order, as JSON
   * (lib/plan/ahead-forecast.ts); empty: none is known.
   */
  forecast?: readonly string[];
}

/**
 * The main thread's accounts made ahead (lib/control/ready-accounts.ts), by
 * the settings the checks ask for.
 *
 * With a forecast (the asks of the last run of the same shape, in order),
 * the next `most` asks it foresees are kept made or under way from the start:
 * the first burst of asks finds its accounts made while the workers start.
 * An ask it did not foresee is made on demand; one foreseen later than it
 * came is not made again when its turn comes.
 *
 * Without one, once checks asked for some settings again, accounts with them
 * are kept made or under way, one fewer than they were asked for so far,
 * `each` at most, and `most` of all settings together; each one taken is
 * replaced at once. Settings asked for once cost nothing, and the common
 * ones are ready when the next check file starts; once the last file has
 * started (`stopMaking`) none is made ahead any more.
 *
 * `close` revokes the keys of those never taken (`most` at most); `asked`
 * is this run's forecast for the next.
 */
export class AccountsAhead {
  readonly #session: Session;
  readonly #each: number;
  readonly #most: number;
  readonly #forecast: readonly string[];
  readonly #ahead = new Map<string, { asked: number; made: Promise<ReadyAccount | undefined>[] }>();
  /** The settings asked for so far, in order (JSON). */
  readonly #asked: string[] = [];
  /** How much of the forecast is made or under way. */
  #foreseen = 0;
  /** Asks that came before their turn in the forecast, by settings: that turn makes nothing. */
  readonly #early = new Map<string, number>();
  #closed = false;
  #making = true;

  constructor(session: Session, limits: AheadLimits) {
    this.#session = session;
    this.#each = limits.each;
    this.#most = limits.most;
    this.#forecast = limits.forecast ?? [];
    this.#makeForeseen();
  }

  /** The oldest one with these settings (made, or under way); undefined if it could not be made or the run is over. */
  take(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    const id = JSON.stringify(settings);
    this.#asked.push(id);
    const ahead = this.#entry(id);
    ahead.asked += 1;
    let next = ahead.made.shift();
    if (!next) {
      next = this.#make(settings);
      if (this.#forecast.indexOf(id, this.#foreseen) >= 0)
        this.#early.set(id, (this.#early.get(id) ?? 0) + 1);
    }
    if (this.#forecast.length > 0) this.#makeForeseen();
    else {
      while (
        this.#making &&
        ahead.made.length < Math.min(ahead.asked - 1, this.#each) &&
        this.#madeAhead() < this.#most
      )
        ahead.made.push(this.#make(settings));
    }
    return next;
  }

  /** The settings asked for in this run, in order (JSON): the next run's forecast. */
  asked(): readonly string[] {
    return this.#asked;
  }

  /** Makes the forecast's next asks, up to `most` made ahead. */
  #makeForeseen(): void {
    while (this.#foreseen < this.#forecast.length && this.#madeAhead() < this.#most) {
      const id = this.#forecast[this.#foreseen++] as string;
      const early = this.#early.get(id) ?? 0;
      if (early > 0) this.#early.set(id, early - 1);
      else this.#entry(id).made.push(this.#make(settingsOf(id)));
    }
  }

  #entry(id: string) {
    let ahead = this.#ahead.get(id);
    if (!ahead) {
      ahead = { asked: 0, made: [] };
      this.#ahead.set(id, ahead);
    }
    return ahead;
  }

  #madeAhead(): number {
    let count = 0;
    for (const { made } of this.#ahead.values()) count += made.length;
    return count;
  }

  /** The last check file has started: without a forecast, nothing more is made ahead. */
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

  /**
   * An account, its key and the key's token, with the raw exchanges that made them (the taker
   * records them). Without a token when the target would not give one: the check asks itself.
   */
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
      const token = await this.#session.tokens.fresh(key, caller).catch(() => undefined);
      return { account, key, ...(token ? { token } : {}), exchanges };
    } catch {
      // The check asking for it makes its own, and meets whatever went wrong itself.
      return undefined;
    }
  }
}
