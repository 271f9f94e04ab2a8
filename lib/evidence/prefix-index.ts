/**
 * Strings indexed by their first `width` characters, to find in one pass
 * which of them a text holds and where. The pieces of the text are looked up
 * by a rolling hash, not cut out: evidence is redacted and templated field by
 * field, and cutting every field into `width`-long pieces was most of a check
 * worker's memory churn. Used by the redactor (known secrets) and
 * the replay trace (known identifiers).
 */
export class PrefixIndex {
  readonly #width: number;
  /** BASE^(width - 1) modulo 2^32: the weight of a piece's first character. */
  readonly #firstWeight: number;
  readonly #byHash = new Map<number, string[]>();

  /** `width`: how many first characters index a value; shorter values cannot be added. */
  constructor(width: number) {
    this.#width = width;
    let weight = 1;
    for (let i = 1; i < width; i++) weight = Math.imul(weight, BASE);
    this.#firstWeight = weight;
  }

  add(value: string): void {
    if (value.length < this.#width) throw new RangeError(`shorter than ${this.#width} characters`);
    const hash = this.#hashAt(value, 0);
    const alike = this.#byHash.get(hash);
    if (alike) alike.push(value);
    else this.#byHash.set(hash, [value]);
  }

  /** Forgets every value added. */
  clear(): void {
    this.#byHash.clear();
  }

  /**
   * Walks `text` from its start; at each position where an indexed value may
   * begin, calls `visit` with the values whose first characters hash alike
   * (the caller checks `text.startsWith(value, at)`). `visit` answers where
   * to go on from (after a match it replaced), or undefined: the next position.
   */
  scan(text: string, visit: (at: number, candidates: readonly string[]) => number | undefined) {
    const width = this.#width;
    if (this.#byHash.size === 0 || text.length < width) return;
    let at = 0;
    let hash = this.#hashAt(text, 0);
    for (;;) {
      const candidates = this.#byHash.get(hash);
      const jump = candidates ? visit(at, candidates) : undefined;
      const next = jump !== undefined && jump > at ? jump : at + 1;
      if (next + width > text.length) return;
      hash =
        next === at + 1
          ? // Roll one character on: drop text[at], take in text[at + width].
            (Math.imul(hash - Math.imul(text.charCodeAt(at), this.#firstWeight), BASE) +
              text.charCodeAt(at + width)) |
            0
          : this.#hashAt(text, next);
      at = next;
    }
  }

  /** The hash of the `width` characters of `text` from `at`: a polynomial in BASE, modulo 2^32. */
  #hashAt(text: string, at: number): number {
    let hash = 0;
    for (let i = at; i < at + this.#width; i++) {
      hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
    }
    return hash;
  }
}

const BASE = 31;
