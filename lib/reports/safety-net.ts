import { Redactor } from '../evidence/redactor.js';

export interface SafetyNetSecrets {
  keyPrefix: string;
  controlToken?: string;
  partnerKey?: { accessKeyId: string; secretKey: string };
}

/**
 * The last redaction before anything is written: evidence is redacted where
 * it is recorded (lib/evidence), and this net catches whatever slipped past
 * (a check's note, an error message, a third-party reporter's output). It
 * knows the run's own secrets exactly, and finds them in every encoding a
 * file may hold them (the redactor decodes JSON, HTML and percent escapes and
 * looks into base64), and secret shapes in general.
 */
export class SafetyNet {
  readonly #redactor: Redactor;

  constructor(secrets: SafetyNetSecrets) {
    this.#redactor = new Redactor(secrets.keyPrefix);
    this.#redactor.add(secrets.controlToken, 'control-token');
    const partner = secrets.partnerKey;
    if (partner) {
      this.#redactor.add(partner.secretKey, 'secret');
      // A short secret's base64 may be too short to search for on its own: the pair, as Basic carries it.
      for (const pair of [
        `${partner.accessKeyId}:${partner.secretKey}`,
        `${formEncoded(partner.accessKeyId)}:${formEncoded(partner.secretKey)}`,
      ])
        this.#redactor.add(Buffer.from(pair).toString('base64'), 'basic-credentials');
    }
  }

  /**
   * Cleans every string inside a value (a report before it is rendered):
   * renderers escape text for their format (Markdown backslashes, HTML
   * entities), and an escaped secret no longer looks like one. What holds
   * nothing to clean is answered as it is, not copied: a run's report is
   * megabytes of evidence and almost none of it changes (a full copy was a
   * third of the reports' memory).
   */
  cleanValue<T>(value: T): T {
    if (typeof value === 'string') return this.clean(value) as T;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const cleaned = this.cleanValue(value[i]);
        if (cleaned !== value[i]) {
          copy ??= [...value];
          copy[i] = cleaned;
        }
      }
      return (copy ?? value) as T;
    }
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      let copy: Record<string, unknown> | undefined;
      for (const key of Object.keys(record)) {
        const inner = record[key];
        const cleaned = this.cleanValue(inner);
        if (cleaned !== inner) {
          copy ??= { ...record };
          copy[key] = cleaned;
        }
      }
      return (copy ?? value) as T;
    }
    return value;
  }

  clean(text: string): string {
    return this.#redactor
      .redact(text)
      .replace(BASIC, (match, scheme: string, credentials: string) =>
        looksLikeCredentials(credentials) ? `${scheme} [REDACTED:basic-credentials]` : match,
      )
      .replace(BEARER, '$1 [REDACTED:token]');
  }
}

/**
 * `Basic <base64>`: long enough not to be an English word ("Basic
 * credentials" in a rule title stays), and redacted only when it decodes to
 * `user:password`.
 */
const BASIC = /\b(Basic)\s+([A-Za-z0-9+/]{16,}={0,2})/gi;
/** `Bearer <token68>` of 20+ characters: `Bearer realm="…"` and prose stay. */
const BEARER = /\b(Bearer)\s+(?!\[REDACTED)[A-Za-z0-9\-._~+/]{20,}=*/gi;

function formEncoded(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function looksLikeCredentials(base64: string): boolean {
  return Buffer.from(base64, 'base64').toString('utf8').includes(':');
}
