import type { CheckContext, TestAccount } from '../../lib/check/index.js';

/**
 * Keeps a check that sends many writes under the write limit of one key (60
 * a minute, section 8) without sleeping: after `budget` writes it moves the
 * account clock past the fixed 60-second window (contract section 2). Only
 * for accounts the run made; with the partner key it does nothing, and such
 * checks keep their number of writes small instead.
 */
export class WritePacer {
  readonly #ctx: CheckContext;
  readonly #account: TestAccount | string | undefined;
  readonly #budget: number;
  #writes = 0;

  /** `account` (or its id) is where the clock moves; `budget` is how many requests fit one window. */
  constructor(ctx: CheckContext, account: TestAccount | string | undefined, budget = 50) {
    this.#ctx = ctx;
    this.#account = account;
    this.#budget = budget;
  }

  /** Call before each write (each POST); answers the seconds it moved the clock (0 or 61). */
  async write(count = 1): Promise<number> {
    let moved = 0;
    if (this.#account && this.#ctx.has('clock') && this.#writes + count > this.#budget) {
      await this.#ctx.advanceClock(this.#account, 61);
      this.#writes = 0;
      moved = 61;
    }
    this.#writes += count;
    return moved;
  }
}
