import { copyFile, mkdirSync, writeFile } from 'node:fs';
import { join } from 'node:path';

/**
 * Files written into one folder through the thread pool, so that the thread
 * asking for them never waits on the file system: `write` answers at once,
 * `settled` once every write asked for is done, and fails with the first
 * write that failed (or with an error handed to `fail`), naming the file.
 *
 * One file at a time, in the order asked: the pool's threads creating files
 * in one folder at once wait on the folder's lock in the kernel, spinning (a
 * full run's allure-results, ~460 files: 0.25 to 0.5 s of the pool's CPU,
 * most of it `rwsem_spin_on_owner` under `openat` in `perf`; one at a time
 * 0.2 to 0.35 s, on a machine of two cores where that CPU is the run's).
 */
export class AsyncFiles {
  readonly #dir: string;
  readonly #pending = new Set<Promise<void>>();
  /** The writes asked for and not yet begun, in order: one is under way at a time. */
  readonly #waiting: (() => void)[] = [];
  #busy = false;
  #made = false;
  #failure: Error | undefined;

  constructor(dir: string) {
    this.#dir = dir;
  }

  write(name: string, content: string | Uint8Array): void {
    this.#track(name, (path, done) => writeFile(path, content, done));
  }

  copy(from: string, name: string): void {
    this.#track(name, (path, done) => copyFile(from, path, done));
  }

  /** An error met while making what was to be written: `settled` fails with it. */
  fail(error: unknown): void {
    this.#failure ??= error instanceof Error ? error : new Error(String(error));
  }

  /** Answers once every write asked for so far is done; fails with the first that failed. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    if (this.#failure) throw this.#failure;
  }

  /** The callback API: lighter on this thread than fs/promises' file handles. */
  #track(name: string, io: (path: string, done: (error: Error | null) => void) => void): void {
    const path = join(this.#dir, name);
    try {
      if (!this.#made) {
        mkdirSync(this.#dir, { recursive: true });
        this.#made = true;
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    const written = new Promise<void>((resolve) => {
      const done = (error: Error | null) => {
        if (error) {
          const reason = (error as NodeJS.ErrnoException).code ?? error.message;
          this.fail(new Error(`could not write ${path} (${reason})`, { cause: error }));
        }
        this.#pending.delete(written);
        resolve();
        this.#next();
      };
      this.#waiting.push(() => {
        try {
          io(path, done);
        } catch (error) {
          // Refused before it began (an argument Node rejects): the next write still goes.
          done(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    this.#pending.add(written);
    if (!this.#busy) this.#next();
  }

  /** Begins the next write waiting, if any. */
  #next(): void {
    const begin = this.#waiting.shift();
    this.#busy = begin !== undefined;
    begin?.();
  }
}
