/**
 * Text as a reader would decode it, with where each decoded character came
 * from. A secret travels escaped in ways no list of its encodings can cover:
 * `/` as `\/` (PHP's json_encode), any character as `\uXXXX` (.NET, Gson,
 * Go's HTML-safe JSON), percent-encoded (URLs, forms, `Link` headers, either
 * case of hex), as an HTML character reference, and mixes of these within one
 * value. The redactor looks for secrets in each decoded level and replaces
 * the raw characters they came from, so the text stays as it was everywhere
 * else (valid JSON stays valid JSON: whole escapes are replaced, never part of one).
 */

export interface DecodedLevel {
  text: string;
  /** For each UTF-16 unit of `text`: where the raw characters it came from start, and end (exclusive). */
  from: Int32Array;
  to: Int32Array;
}

/** How many times escapes are undone (a percent-encoded value inside escaped JSON, JSON inside JSON). */
const MAX_LEVELS = 3;

/** Characters that may start an escape: text with none of them has no decoded level. */
const INTRODUCER = /[\\%&]/;

/**
 * The decoded levels of `raw`, each decoded once more than the one before;
 * none when nothing in it decodes. Positions always point into `raw`.
 * `deeper` (a level's text, `raw` first) says whether decoding it once more
 * can show anything searched for (decodingMatters); by default always.
 */
export function decodedLevels(
  raw: string,
  deeper: (text: string) => boolean = () => true,
): DecodedLevel[] {
  const levels: DecodedLevel[] = [];
  let text = raw;
  for (let i = 0; i < MAX_LEVELS && INTRODUCER.test(text) && deeper(text); i++) {
    const next = decodeOnce(text);
    if (!next) break;
    const below = levels[levels.length - 1];
    if (below) {
      // Positions of the level below are positions in its text: follow them down to `raw`.
      for (let k = 0; k < next.text.length; k++) {
        next.from[k] = below.from[next.from[k] as number] as number;
        next.to[k] = below.to[(next.to[k] as number) - 1] as number;
      }
    }
    levels.push(next);
    text = next.text;
  }
  return levels;
}

/**
 * Characters an escape is written with (introducers, `#`, `;`, letters and
 * digits): an escape that decodes to one of them may complete another escape
 * one level down.
 */
function isEscapeSyntax(unit: number): boolean {
  return (
    unit === 0x5c ||
    unit === 0x25 ||
    unit === 0x26 ||
    unit === 0x23 ||
    unit === 0x3b ||
    (unit >= 0x30 && unit <= 0x39) ||
    (unit >= 0x41 && unit <= 0x5a) ||
    (unit >= 0x61 && unit <= 0x7a)
  );
}

/**
 * Whether decoding `text` (once or more) can show a run of `relevant`
 * characters that `text` does not show as it is: only when one of its
 * escapes decodes to a relevant character or to one escapes are written
 * with. Otherwise every character an escape yields, at any level, is neither
 * relevant nor part of a further escape, so a run of relevant characters in a
 * decoded level is a run of the raw text's own characters, side by side there
 * too: searching the raw text finds it already. Most text a report holds is
 * so: JSON's `\"` and `\n`, HTML's `&quot;` and `&lt;` decode to characters no
 * secret holds. One pass, nothing allocated but for a percent run.
 */
export function decodingMatters(text: string, relevant: (unit: number) => boolean): boolean {
  let matters = false;
  const check: Emit = (point) => {
    if (matters) return;
    if (point > 0xffff) {
      const high = 0xd800 + ((point - 0x10000) >> 10);
      const low = 0xdc00 + ((point - 0x10000) & 0x3ff);
      matters = relevant(high) || relevant(low);
    } else matters = relevant(point) || isEscapeSyntax(point);
  };
  // From introducer to introducer, found by indexOf (a native search, ~10 times faster than a
  // loop over a report's 20 M characters), not a regular expression: a report's pieces hold
  // escapes by the hundred thousand (`&quot;`), and each match would be an allocation.
  const next = new NextIntroducer(text);
  for (let at = next.from(0); at >= 0 && !matters; ) {
    const c = text.charCodeAt(at);
    const end =
      c === 0x5c
        ? backslash(text, at, check)
        : c === 0x25
          ? percent(text, at, check)
          : reference(text, at, check);
    // Past a whole escape, as decodeOnce reads it: an introducer inside one starts none.
    at = next.from(end > at ? end : at + 1);
  }
  return matters;
}

/** Where the next `\`, `%` or `&` of a text stands, from a position on: -1 past the last. */
class NextIntroducer {
  readonly #text: string;
  // The next of each kind at or after the last position asked for; -1 once none is left.
  #backslash: number;
  #percent: number;
  #ampersand: number;

  constructor(text: string) {
    this.#text = text;
    this.#backslash = text.indexOf('\\');
    this.#percent = text.indexOf('%');
    this.#ampersand = text.indexOf('&');
  }

  /** Positions asked for only grow: each search starts where the last one of its kind ended. */
  from(at: number): number {
    if (this.#backslash >= 0 && this.#backslash < at)
      this.#backslash = this.#text.indexOf('\\', at);
    if (this.#percent >= 0 && this.#percent < at) this.#percent = this.#text.indexOf('%', at);
    if (this.#ampersand >= 0 && this.#ampersand < at) this.#ampersand = this.#text.indexOf('&', at);
    return earliest(earliest(this.#backslash, this.#percent), this.#ampersand);
  }
}

/** The earlier of two positions, -1 standing for none. */
const earliest = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b));

/** Undoes every escape of `text` once; undefined when there is none. */
function decodeOnce(text: string): DecodedLevel | undefined {
  const n = text.length;
  const units = new Uint16Array(n);
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  let k = 0;
  let changed = false;
  const emit = (unit: number, start: number, end: number) => {
    units[k] = unit;
    from[k] = start;
    to[k] = end;
    k++;
  };
  const emitPoint = (point: number, start: number, end: number) => {
    if (point > 0xffff) {
      emit(0xd800 + ((point - 0x10000) >> 10), start, end);
      emit(0xdc00 + ((point - 0x10000) & 0x3ff), start, end);
    } else emit(point, start, end);
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let end = -1;
    if (c === 0x5c) end = backslash(text, i, emitPoint);
    else if (c === 0x25) end = percent(text, i, emitPoint);
    else if (c === 0x26) end = reference(text, i, emitPoint);
    if (end > i) {
      changed = true;
      i = end;
    } else {
      emit(c, i, i + 1);
      i++;
    }
  }
  if (!changed) return undefined;
  return { text: fromUnits(units, k), from: from.slice(0, k), to: to.slice(0, k) };
}

type Emit = (point: number, start: number, end: number) => void;

const SIMPLE: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c };

/** `\uXXXX`, `\xHH`, `\n` and its kin, and `\` before any ASCII punctuation (`\/`, `\"`, Markdown's `\_`). */
function backslash(text: string, at: number, emit: Emit): number {
  const next = text[at + 1];
  if (next === undefined) return -1;
  if (next === 'u' && isHex(text, at + 2, 4)) {
    emit(Number.parseInt(text.slice(at + 2, at + 6), 16), at, at + 6);
    return at + 6;
  }
  if (next === 'x' && isHex(text, at + 2, 2)) {
    emit(Number.parseInt(text.slice(at + 2, at + 4), 16), at, at + 4);
    return at + 4;
  }
  const simple = SIMPLE[next];
  if (simple !== undefined) {
    emit(simple, at, at + 2);
    return at + 2;
  }
  const code = next.charCodeAt(0);
  if (isPunctuation(code)) {
    emit(code, at, at + 2);
    return at + 2;
  }
  return -1;
}

/**
 * A run of `%HH`: bytes decoded as UTF-8 where they form a character, each
 * byte on its own (as Latin-1) where they do not.
 */
function percent(text: string, at: number, emit: Emit): number {
  if (!isHex(text, at + 1, 2)) return -1;
  const bytes: number[] = [];
  let i = at;
  while (text.charCodeAt(i) === 0x25 && isHex(text, i + 1, 2)) {
    bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
    i += 3;
  }
  let b = 0;
  while (b < bytes.length) {
    const lead = bytes[b] as number;
    const length =
      lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 1;
    let point = length === 1 ? lead : lead & (0xff >> (length + 1));
    let valid = length === 1 || b + length <= bytes.length;
    for (let j = 1; valid && j < length; j++) {
      const byte = bytes[b + j] as number;
      if ((byte & 0xc0) !== 0x80) valid = false;
      else point = (point << 6) | (byte & 0x3f);
    }
    const size = valid ? length : 1;
    emit(valid ? point : lead, at + b * 3, at + (b + size) * 3);
    b += size;
  }
  return i;
}

/** The references an HTML writer may use for the characters of a secret. */
const NAMED: Record<string, number> = {
  amp: 0x26,
  lt: 0x3c,
  gt: 0x3e,
  quot: 0x22,
  apos: 0x27,
  sol: 0x2f,
  bsol: 0x5c,
  plus: 0x2b,
  equals: 0x3d,
  percnt: 0x25,
  lowbar: 0x5f,
  period: 0x2e,
  colon: 0x3a,
  semi: 0x3b,
  comma: 0x2c,
  num: 0x23,
  excl: 0x21,
  quest: 0x3f,
  commat: 0x40,
  dollar: 0x24,
  lpar: 0x28,
  rpar: 0x29,
  ast: 0x2a,
  lsqb: 0x5b,
  rsqb: 0x5d,
  lcub: 0x7b,
  rcub: 0x7d,
  verbar: 0x7c,
  tilde: 0x7e,
  grave: 0x60,
  Hat: 0x5e,
  hyphen: 0x2d,
  dash: 0x2010,
};

/** `&#NNN;`, `&#xHH;` and the named references above. */
function reference(text: string, at: number, emit: Emit): number {
  const semi = text.indexOf(';', at + 2);
  if (semi < 0 || semi - at > 10) return -1;
  const name = text.slice(at + 1, semi);
  let point: number | undefined;
  if (text.charCodeAt(at + 1) !== 0x23)
    point = Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
  else if (/^#[0-9]{1,7}$/.test(name)) point = Number(name.slice(1));
  else if (/^#[xX][0-9a-fA-F]{1,6}$/.test(name)) point = Number.parseInt(name.slice(2), 16);
  if (point === undefined || point > 0x10ffff) return -1;
  emit(point, at, semi + 1);
  return semi + 1;
}

function isHex(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    const hex = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    if (!hex) return false;
  }
  return true;
}

function isPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

function fromUnits(units: Uint16Array, length: number): string {
  let out = '';
  // `apply` takes the typed array as it is; a spread would walk it through an iterator.
  for (let i = 0; i < length; i += 8192)
    out += String.fromCharCode.apply(
      null,
      units.subarray(i, Math.min(length, i + 8192)) as unknown as number[],
    );
  return out;
}
