import { escapeRegExp } from '../text/escape-regexp.js';
import { type DecodedLevel, decodedLevels, decodingMatters } from './decoded-view.js';
import { PrefixIndex } from './prefix-index.js';

/**
 * Removes secrets from text before anything records it. Two nets:
 * 1. exact values the run holds (control token, partner secret, every Secret
 *    Key and access token the run made or was given), found however the text
 *    carries them: as they are, in every decoded level of the text (`\/`,
 *    `\uXXXX`, percent-encoding, HTML references, mixed: decoded-view.ts),
 *    and in base64 at any alignment (Basic credentials, a token inside any
 *    base64 blob), in either base64 alphabet;
 * 2. shapes: `<prefix>_(test|live)_sk_…`, `<prefix>_at_…`, the document's
 *    formats of a Secret Key and an access token, so a secret the run never
 *    saw is caught too (also decoded).
 * Only secrets the run holds are registered: a value a target chose and put
 * in a field named `token` is not one (it would let a target hide any text of
 * a report). Each distinct secret becomes `[REDACTED:<kind>#n]`, so evidence
 * can still tell two tokens apart without showing either.
 */
export class Redactor {
  /** Every text searched for (a secret, its form-encoded form, their base64 cores) and its mark. */
  readonly #marks = new Map<string, string>();
  /** The base64 cores among them: a match masks the whole base64 run around it. */
  readonly #base64 = new Set<string>();
  /** Secrets registered, as given. */
  readonly #secrets = new Set<string>();
  /** #marks by their first PREFIX characters: finds those a text holds in one pass over it. */
  readonly #byPrefix = new PrefixIndex(PREFIX);
  readonly #shapes: RegExp[];
  /**
   * Every character (UTF-16 unit) of a text searched for or of a shape: a
   * decoded level is searched only where an escape yields one of them
   * (decodingMatters); elsewhere it shows nothing the text itself does not.
   */
  readonly #relevant = unitsOf(SHAPE_CHARS, new Set<number>());
  readonly #isRelevant = (unit: number) => this.#relevant.has(unit);
  /**
   * Whether a level needs decoding once more. Text with `_sk_` or `_at_` always: the
   * shapes start at a word boundary, which a decoded character beside them may make.
   */
  readonly #deeper = (text: string) =>
    text.includes('_sk_') || text.includes('_at_') || decodingMatters(text, this.#isRelevant);
  #counter = 0;

  constructor(keyPrefix = 'odp') {
    const prefix = escapeRegExp(keyPrefix);
    // <chars> are base62 in the reference, but the API document does not say so: the shapes run
    // on over every character a bearer token may hold (RFC 6750 §2.1 b64token), so a secret with
    // `-` or `_` in it is masked whole, never cut at its first symbol.
    const chars = '[A-Za-z0-9._~+/-]';
    this.#shapes = [
      new RegExp(`${prefix}_(?:test|live)_sk_${chars}+=*`, 'g'),
      new RegExp(`${prefix}_at_${chars}+=*`, 'g'),
      // Any prefix, reference-shaped: keeps other deployments' secrets out too.
      new RegExp(`\\b[a-z][a-z0-9]{1,15}_(?:test|live)_sk_[A-Za-z0-9]${chars}{7,}=*`, 'g'),
      new RegExp(`\\b[a-z][a-z0-9]{1,15}_at_[A-Za-z0-9]${chars}{15,}=*`, 'g'),
    ];
  }

  /** Registers a secret the run holds (ignored when too short to be one). */
  add(value: string | undefined, kind = 'secret'): void {
    if (!value || value.length < PREFIX || this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#counter += 1;
    const mark = `[REDACTED:${kind}#${this.#counter}]`;
    // As it is, and as a form or JSON carries it inside base64 (Basic credentials, a JWT's payload).
    const forms = new Set([value, formEncoded(value), JSON.stringify(value).slice(1, -1)]);
    for (const form of forms) this.#search(form, mark);
    for (const form of forms) for (const core of base64Cores(form)) this.#search(core, mark, true);
  }

  #search(text: string, mark: string, base64 = false): void {
    if (text.length < PREFIX || this.#marks.has(text)) return;
    this.#marks.set(text, mark);
    if (base64) this.#base64.add(text);
    // A base64 core's characters are all among the shapes' (SHAPE_CHARS), relevant already.
    else unitsOf(text, this.#relevant);
    this.#byPrefix.add(text);
  }

  /**
   * Registers the values of fields named like credentials (`access_token`,
   * `client_secret`, …) in a body the suite sent, or in an answer that hands
   * the run a credential (a token answer, a control API's new key): `fields`
   * names the fields to take.
   */
  learnFields(value: unknown, fields: RegExp = CREDENTIAL_FIELDS): void {
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (Array.isArray(node)) {
        stack.push(...node);
        continue;
      }
      if (node === null || typeof node !== 'object') continue;
      for (const field of Object.keys(node)) {
        const inner = (node as Record<string, unknown>)[field];
        if (typeof inner === 'string' && fields.test(field)) this.add(inner, kindOf(field));
        else stack.push(inner);
      }
    }
  }

  redact(text: string): string {
    if (text.length < PREFIX) return text;
    // Allocated only once something is found: most text a run records holds no secret.
    let spans = this.#find(text, undefined, undefined);
    for (const level of decodedLevels(text, this.#deeper))
      spans = this.#find(level.text, level, spans);
    return spans === undefined ? text : replaceSpans(text, spans);
  }

  /**
   * Known secrets and shapes in `view` (the raw text, or one decoded level of it), added to
   * `spans` as raw spans; answers `spans`, made when the first is found. Methods rather than
   * closures: this runs for every field of every exchange.
   */
  #find(
    view: string,
    level: DecodedLevel | undefined,
    spans: Span[] | undefined,
  ): Span[] | undefined {
    let out = spans;
    if (this.#marks.size <= FEW) {
      // A handful (the safety net's): a native search each beats indexing a long report.
      for (const pattern of this.#marks.keys()) {
        for (let at = view.indexOf(pattern); at >= 0; at = view.indexOf(pattern, at + 1)) {
          out ??= [];
          this.#found(view, level, out, at, pattern);
        }
      }
    } else if (this.#marks.size > 0) {
      this.#byPrefix.scan(view, (at, candidates) => {
        let longest: string | undefined;
        for (let i = 0; i < candidates.length; i++) {
          const pattern = candidates[i] as string;
          if (
            (longest === undefined || pattern.length > longest.length) &&
            view.startsWith(pattern, at)
          )
            longest = pattern;
        }
        if (longest === undefined) return undefined;
        out ??= [];
        return this.#found(view, level, out, at, longest);
      });
    }
    // Every shape holds `_sk_` or `_at_`: text with neither is not searched again (most of it).
    if (view.includes('_sk_') || view.includes('_at_')) {
      for (const shape of this.#shapes) {
        for (const match of view.matchAll(shape)) {
          out ??= [];
          pushSpan(out, level, match.index, match.index + match[0].length, '[REDACTED]');
        }
      }
    }
    return out;
  }

  /** A known text found at `at` of `view`: its span (a base64 core's whole run); answers its end. */
  #found(
    view: string,
    level: DecodedLevel | undefined,
    spans: Span[],
    at: number,
    pattern: string,
  ): number {
    let end = at + pattern.length;
    let start = at;
    if (this.#base64.has(pattern)) {
      // The whole base64 run: what surrounds the core holds the secret's first and last bytes.
      while (start > 0 && BASE64_CHAR.test(view[start - 1] as string)) start--;
      while (end < view.length && BASE64_CHAR.test(view[end] as string)) end++;
    }
    pushSpan(spans, level, start, end, this.#marks.get(pattern) as string);
    return end;
  }

  /**
   * A header value. Credentials the suite sent are replaced whatever their
   * content (and registered, so their every other appearance goes too);
   * `learn: false` for the headers of an answer, which are the target's
   * words, not credentials the run holds.
   */
  redactHeader(name: string, value: string, options: { learn?: boolean } = {}): string {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const scheme = value.split(' ')[0] ?? '';
      const rest = value.slice(scheme.length + 1);
      if (/^basic$/i.test(scheme)) return `${scheme} [REDACTED:basic-credentials]`;
      if (rest)
        return `${scheme} ${options.learn === false ? this.redact(rest) : this.#markFor(rest, 'token')}`;
      // No scheme at all: the whole value may be the credential.
      return value === '' ? value : '[REDACTED]';
    }
    if (lower === 'x-control-token' || lower === 'cookie' || lower === 'set-cookie') {
      return '[REDACTED]';
    }
    return this.redact(value);
  }

  redactHeaders(
    headers: Record<string, string>,
    options: { learn?: boolean } = {},
  ): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of Object.keys(headers))
      out[name] = this.redactHeader(name, headers[name] as string, options);
    return out;
  }

  #markFor(secret: string, kind: string): string {
    this.add(secret, kind);
    return this.#marks.get(secret) ?? '[REDACTED]';
  }
}

/** Where a secret stands in the raw text, and what replaces it. */
interface Span {
  start: number;
  end: number;
  mark: string;
}

/** A span found in `level` (none: the raw text itself), as positions in the raw text. */
function pushSpan(
  spans: Span[],
  level: DecodedLevel | undefined,
  start: number,
  end: number,
  mark: string,
): void {
  spans.push(
    level
      ? { start: level.from[start] as number, end: level.to[end - 1] as number, mark }
      : { start, end, mark },
  );
}

/** `text` with every span replaced by its mark; overlapping spans become one (the first one's mark). */
function replaceSpans(text: string, spans: Span[]): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < spans.length) {
    const first = spans[i] as Span;
    let end = first.end;
    i++;
    while (i < spans.length && (spans[i] as Span).start < end) {
      end = Math.max(end, (spans[i] as Span).end);
      i++;
    }
    out += text.slice(copied, first.start) + first.mark;
    copied = end;
  }
  return out + text.slice(copied);
}

/** Every character the shapes match (the `chars` of the constructor, `_` and `=`). */
const SHAPE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/-=';

/** `units` with every UTF-16 unit of `text` added. */
function unitsOf(text: string, units: Set<number>): Set<number> {
  for (let i = 0; i < text.length; i++) units.add(text.charCodeAt(i));
  return units;
}

/** Secrets shorter than this are not registered (add); their first this many characters index them. */
const PREFIX = 6;

/** Up to this many texts to search for, each is searched for on its own. */
const FEW = 16;

/** base64 cores shorter than this (12 bytes) would match by chance: a shorter secret is found only as it is. */
const MIN_CORE_BYTES = 12;

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;

/** Field names of credentials in what the suite sends (forms, JSON bodies, queries). */
/** What the control API hands the run (target contract, section 3: a new or rolled key's secret). */
export const HANDED_OUT_BY_CONTROL = /^secret_key$/;
/** What a token answer hands the run (API document section 4; RFC 6749 §5.1). */
export const HANDED_OUT_BY_TOKEN = /^(access_token|refresh_token)$/;

const CREDENTIAL_FIELDS =
  /^(access_token|refresh_token|secret_key|client_secret|secret|password|token)$/i;

function kindOf(field: string): string {
  return /token/i.test(field) ? 'token' : 'secret';
}

/** As `application/x-www-form-urlencoded` and Basic credentials (RFC 6749 §2.3.1) carry it. */
function formEncoded(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * The parts of base64(anything + `text` + anything) that do not depend on
 * what surrounds `text`: one for each of the three alignments, in both
 * alphabets (RFC 4648 base64 and base64url).
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores = new Set<string>();
  for (let skip = 0; skip < 3; skip++) {
    const usable = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    if (usable.length < MIN_CORE_BYTES) continue;
    cores.add(usable.toString('base64'));
    cores.add(usable.toString('base64url'));
  }
  return [...cores];
}
