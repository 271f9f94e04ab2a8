import { PrefixIndex } from './prefix-index.js';

/**
 * Removes secrets from text before anything records it. Two nets:
 * 1. exact values the run knows are secret (control token, partner secret,
 *    every Secret Key and access token the run has seen), and
 * 2. shapes: `<prefix>_(test|live)_sk_…`, `<prefix>_at_…`, Basic and Bearer
 *    credentials, so a secret the run never saw is caught too.
 * Each distinct secret becomes `[REDACTED:<kind>#n]`, so evidence can still
 * tell two tokens apart without showing either.
 */
export class Redactor {
  readonly #known = new Map<string, string>();
  /** Known secrets by their first PREFIX characters: finds those a text holds in one pass over it. */
  readonly #byPrefix = new PrefixIndex(PREFIX);
  /** #known longest first; rebuilt only when a secret is added (redact runs far more often). */
  #sorted: [string, string][] | undefined;
  readonly #shapes: RegExp[];
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

  /** Registers an exact secret value (ignored when too short to be one). */
  add(value: string | undefined, kind = 'secret'): void {
    if (!value || value.length < PREFIX || this.#known.has(value)) return;
    this.#counter += 1;
    this.#remember(value, `[REDACTED:${kind}#${this.#counter}]`);
    // Also catch it where it travels percent- or base64-encoded.
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#remember(encoded, `[REDACTED:${kind}#${this.#counter}]`);
  }

  #remember(secret: string, mark: string): void {
    this.#known.set(secret, mark);
    this.#byPrefix.add(secret);
    this.#sorted = undefined;
  }

  /** Finds secrets in a JSON body (fields named like credentials) and registers them. */
  learnFromJson(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.learnFromJson(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const field of Object.keys(record)) {
      const inner = record[field];
      if (typeof inner === 'string' && SECRET_FIELDS.test(field)) this.add(inner, kindOf(field));
      else this.learnFromJson(inner);
    }
  }

  redact(text: string): string {
    let out = text;
    const present = this.#present(text);
    if (present) {
      // Longest first, so a secret containing another is replaced whole.
      this.#sorted ??= [...this.#known.entries()].sort((a, b) => b[0].length - a[0].length);
      for (const [secret, mark] of this.#sorted) {
        if (present.has(secret)) out = out.split(secret).join(mark);
      }
    }
    // Every shape holds `_sk_` or `_at_`: text with neither is not searched again (most of it).
    if (out.includes('_sk_') || out.includes('_at_')) {
      for (const shape of this.#shapes) out = out.replace(shape, '[REDACTED]');
    }
    return out;
  }

  /**
   * The known secrets `text` contains; undefined: none. A check file learns
   * hundreds of tokens and every exchange is redacted field by field: trying
   * each secret on each field made redaction most of a run's CPU time.
   */
  #present(text: string): Set<string> | undefined {
    let present: Set<string> | undefined;
    if (this.#known.size <= FEW) {
      // A handful (the safety net's): a native search each beats indexing a long report.
      for (const secret of this.#known.keys()) {
        if (!text.includes(secret)) continue;
        present ??= new Set();
        present.add(secret);
      }
      return present;
    }
    this.#byPrefix.scan(text, (at, candidates) => {
      for (const secret of candidates) {
        if (!text.startsWith(secret, at)) continue;
        present ??= new Set();
        present.add(secret);
      }
      return undefined;
    });
    return present;
  }

  /** Header values: credentials are replaced whatever their content. */
  redactHeader(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const scheme = value.split(' ')[0] ?? '';
      const rest = value.slice(scheme.length + 1);
      if (/^basic$/i.test(scheme)) return `${scheme} [REDACTED:basic-credentials]`;
      if (rest) return `${scheme} ${this.#markFor(rest, 'token')}`;
      // No scheme at all: the whole value may be the credential.
      return value === '' ? value : '[REDACTED]';
    }
    if (lower === 'x-control-token' || lower === 'cookie' || lower === 'set-cookie') {
      return '[REDACTED]';
    }
    return this.redact(value);
  }

  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = this.redactHeader(name, value);
    return out;
  }

  #markFor(secret: string, kind: string): string {
    this.add(secret, kind);
    return this.#known.get(secret) ?? '[REDACTED]';
  }
}

/** Secrets shorter than this are not registered (add); their first this many characters index them. */
const PREFIX = 6;

/** Up to this many known secrets, each is searched for on its own. */
const FEW = 16;

const SECRET_FIELDS =
  /^(access_token|refresh_token|secret_key|client_secret|secret|password|token)$/i;

function kindOf(field: string): string {
  return /token/i.test(field) ? 'token' : 'secret';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
