import { CREDENTIAL_SHAPE, decodeUrlBytes } from './credentials-in-url.js';

const REDACTED = '[redacted]';
/** Shortest control token looked for inside answers; a shorter one would mask ordinary words. */
const MIN_CONTROL_TOKEN_MATCH = 8;
/** Words of a text: runs between the characters that separate path segments, query parts and prose. */
const WORD = /[^\s"'<>/?&=,;:]+/g;
const BASE64_WORD = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})/g;

/**
 * Masks credentials in text the server is about to answer with (house rules:
 * no Secret Key, access token or control token ever reaches a server answer).
 * A word is masked when, once percent-, JSON- or base64-decoded (Basic
 * credentials), it holds anything shaped like a key or token (§2) or the
 * control token; only that word goes, so a path stays recognisable:
 * `/api/on-demand/v1/orders/[redacted]`.
 */
export class Redactor {
  readonly #controlToken: string | undefined;

  constructor(controlToken: string | undefined) {
    this.#controlToken =
      controlToken !== undefined && controlToken.length >= MIN_CONTROL_TOKEN_MATCH
        ? controlToken
        : undefined;
  }

  /** Whether the (already decoded) text holds a credential. */
  holdsCredential(text: string): boolean {
    if (text.includes('_') && CREDENTIAL_SHAPE.test(text)) return true;
    return this.#controlToken !== undefined && text.includes(this.#controlToken);
  }

  text(text: string): string {
    let out = text;
    if (this.#controlToken !== undefined) out = out.replaceAll(this.#controlToken, REDACTED);
    return out.replace(WORD, (word) => (this.#wordHolds(word) ? REDACTED : word));
  }

  /** Every string in a JSON-like value, masked (a problem body before it is sent). */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value)) out[name] = this.value(item);
      return out;
    }
    return value;
  }

  #wordHolds(word: string): boolean {
    const decoded = decodeUrlBytes(word).replace(JSON_ESCAPE, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (this.holdsCredential(decoded)) return true;
    if (!BASE64_WORD.test(decoded)) return false;
    return this.holdsCredential(Buffer.from(decoded, 'base64').toString('latin1'));
  }
}
