import { KEY_PREFIX } from '../config/api.js';
import { base64RunHoldsCredential, decodeUrlBytes } from './credentials-in-url.js';
import type { Redactor } from './redact.js';

const REDACTED = '[redacted]';
/** How many decodings deep a piece is looked into: `%25256F` is percent-encoded three times. */
const MAX_DEPTH = 4;
const HEX_RUN = /[0-9A-Fa-f]{12,}/g;
const HAS_HEX_RUN = /[0-9A-Fa-f]{12,}/;
const ESCAPED_HEX = /\\x([0-9A-Fa-f]{2})/g;
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})/g;
/** The characters that separate path segments and query parts: each piece between them is judged alone. */
const PIECES = /[^/?&=;,\s]+/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;

/**
 * Request URLs and error messages as they may be logged (docs/sandbox.md,
 * "Logs"): every piece of a path (between `/`, `?`, `&`, `=`, `;`, `,`) that
 * decodes to a credential is replaced by `[redacted]`, whatever the decoding:
 * percent-encoding (any number of times, malformed escapes around it or not),
 * hex (`6f64705f…`, `\x6f…`), base64 or base64url (Basic credentials), JSON
 * `\u` escapes, and any mix of them. A credential is anything shaped like a
 * Secret Key, Access Key ID or access token (§2), any piece naming the key
 * prefix, or the control token. The query string is never logged: only `?`
 * and `[query redacted]`.
 */
export class LogScrubber {
  readonly #redactor: Redactor;

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  url(url: string): string {
    const q = url.indexOf('?');
    const path = this.text(q === -1 ? url : url.slice(0, q));
    return q === -1 ? path : `${path}?[query redacted]`;
  }

  /** Free text (an error message that quotes a URL): each piece judged as in a path. */
  text(text: string): string {
    const scrubbed = this.#redactor
      .text(text)
      // Base64 may hold `/` (Basic credentials pasted into a path): whole runs first.
      .replace(BASE64_RUN, (run) => (base64RunHoldsCredential(run) ? REDACTED : run))
      .replace(PIECES, (piece) => (this.#holds(piece) ? REDACTED : piece));
    // The last word: whatever the pieces missed (a credential cut across pieces and
    // joined again by a decoding), the whole text is dropped.
    return this.#holds(scrubbed) ? REDACTED : scrubbed;
  }

  #holds(piece: string): boolean {
    let forms = new Set([piece]);
    const seen = new Set<string>();
    for (let depth = 0; depth <= MAX_DEPTH && forms.size > 0; depth++) {
      const next = new Set<string>();
      for (const form of forms) {
        if (seen.has(form)) continue;
        seen.add(form);
        if (this.#credential(form)) return true;
        for (const decoded of decodings(form)) if (decoded !== form) next.add(decoded);
      }
      forms = next;
    }
    return false;
  }

  #credential(text: string): boolean {
    if (this.#redactor.holdsCredential(text)) return true;
    if (text.toLowerCase().includes(`${KEY_PREFIX}_`)) return true;
    for (const run of text.match(BASE64_RUN) ?? []) if (base64RunHoldsCredential(run)) return true;
    return false;
  }
}

/** Every way `text` may be read once decoded (runs inside it included: `prefix-6f64…%zz`). */
function decodings(text: string): string[] {
  const out: string[] = [];
  if (text.includes('%') || text.includes('+')) out.push(decodeUrlBytes(text));
  if (HAS_HEX_RUN.test(text)) {
    // A run's pairs may start at its first character or its second.
    out.push(text.replace(HEX_RUN, (run) => unhex(run)));
    out.push(text.replace(HEX_RUN, (run) => run.charAt(0) + unhex(run.slice(1))));
  }
  if (text.includes('\\x')) {
    out.push(
      text.replace(ESCAPED_HEX, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    );
  }
  if (text.includes('\\u')) {
    out.push(
      text.replace(JSON_ESCAPE, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    );
  }
  for (const run of text.match(BASE64_RUN) ?? []) {
    // Four groups of base64 characters are three bytes wherever the run starts: each start looked at.
    for (let from = 0; from < 4; from++)
      out.push(Buffer.from(run.slice(from), 'base64').toString('latin1'));
  }
  return out;
}

function unhex(run: string): string {
  const even = run.length - (run.length % 2);
  return Buffer.from(run.slice(0, even), 'hex').toString('latin1') + run.slice(even);
}
