/**
 * A value made on first use and shared by every later use; a making that
 * fails is forgotten, so that the next use tries again (each caller of the
 * failed one sees its error). The file's account and a check's own account
 * (file-fixture.ts, context-impl.ts) are made so.
 */
export class MadeOnce<T> {
  #made: Promise<T> | undefined;

  get(make: () => Promise<T>): Promise<T> {
    if (!this.#made) {
      const made = make();
      this.#made = made;
      made.catch(() => {
        if (this.#made === made) this.#made = undefined;
      });
    }
    return this.#made;
  }
}
