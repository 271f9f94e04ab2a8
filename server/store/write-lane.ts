import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One writer at a time on the single SQLite connection. A transaction's work
 * is async (it awaits store calls), so other requests run between its
 * statements; a write of theirs on the same connection would join the open
 * transaction and be undone by its rollback. So every write and every
 * transaction runs in the lane, one after another; store calls made by the
 * work holding the lane (its async context) run at once, as part of it.
 *
 * The holder is known through AsyncLocalStorage, which on Node 20 tracks the
 * context of every promise of the process once it is in use (about 13% of
 * GET /account's throughput). So it is switched off whenever the lane is
 * idle: a read-only load pays nothing, and nobody holds an idle lane.
 */
export class WriteLane {
  readonly #holder = new AsyncLocalStorage<true>();
  #tail: Promise<unknown> = Promise.resolve();
  /** Lane work queued or running. */
  #pending = 0;

  /** Whether the caller is work that holds the lane. */
  get held(): boolean {
    return this.#holder.getStore() === true;
  }

  /** Runs `work` alone; the next lane work starts once its promise settles. */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.held) return new Promise<T>((resolve) => resolve(work()));
    this.#pending++;
    const run = this.#tail.then(() => this.#holder.run(true, work));
    this.#tail = run.then(
      () => this.#settled(),
      () => this.#settled(),
    );
    return run;
  }

  #settled(): void {
    this.#pending--;
    // Idle: no holder to find until the next run() (which switches it on again).
    if (this.#pending === 0) this.#holder.disable();
  }
}
