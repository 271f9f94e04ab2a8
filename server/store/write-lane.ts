import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One writer at a time on the single SQLite connection. A transaction's work
 * is async (it awaits store calls), so other requests run between its
 * statements; a write of theirs on the same connection would join the open
 * transaction and be undone by its rollback. So every write and every
 * transaction runs in the lane, one after another; store calls made by the
 * work holding the lane (its async context) run at once, as part of it.
 */
export class WriteLane {
  readonly #holder = new AsyncLocalStorage<true>();
  #tail: Promise<unknown> = Promise.resolve();

  /** Whether the caller is work that holds the lane. */
  get held(): boolean {
    return this.#holder.getStore() === true;
  }

  /** Runs `work` alone; the next lane work starts once its promise settles. */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.held) return new Promise<T>((resolve) => resolve(work()));
    const run = this.#tail.then(() => this.#holder.run(true, work));
    this.#tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
