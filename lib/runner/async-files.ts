import { copyFile, mkdirSync, writeFile } from 'node:fs';
import { join } from 'node:path';

/**
 * Files written into one folder through the thread pool, so that the thread
 * asking for them never waits on the file system: `write` answers at once,
 * `settled` once every write asked for is done, and fails with the first
 * write that failed (or with an error handed to `fail`), naming the file.
 */
export class AsyncFiles {
  readonly #dir: string;
  readonly #pending = new Set<Promise<void>>();
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
      io(path, (error) => {
        if (error) {
          const reason = (error as NodeJS.ErrnoException).code ?? error.message;
          this.fail(new Error(`could not write ${path} (${reason})`, { cause: error }));
        }
        this.#pending.delete(written);
        resolve();
      });
    });
    this.#pending.add(written);
  }
}
