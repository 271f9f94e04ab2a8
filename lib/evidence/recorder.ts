import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from './exchange.js';
import type { Redactor } from './redactor.js';

/** Bodies beyond this many characters are cut in evidence (the check still sees them whole). */
const MAX_BODY_CHARS = 4_000;
/** A check that makes hundreds of requests (rate limits) keeps its first and last ones. */
const KEEP_FIRST = 15;
const KEEP_LAST = 25;

export interface RawExchange {
  channel: Exchange['channel'];
  startedAt: Date;
  durationMs: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  error?: { code: string; message: string };
}

/**
 * Collects one check's exchanges. Everything is redacted here, at the point of
 * recording, so nothing downstream (reports, logs, vitest output) can leak.
 */
export class EvidenceRecorder {
  readonly #redactor: Redactor;
  #exchanges: Exchange[] = [];
  #next = 1;
  /** Exchanges a violation points at are kept whatever the trimming. */
  readonly #pinned = new Set<number>();
  /** A buffer of one of several runs in flight at once (`into`): their exchanges must not mix. */
  readonly #into = new AsyncLocalStorage<Exchange[]>();

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  record(raw: RawExchange): number {
    const id = this.#next++;
    const r = this.#redactor;
    learnSecrets(r, raw);
    const exchange: Exchange = {
      id,
      channel: raw.channel,
      startedAt: raw.startedAt.toISOString(),
      durationMs: Math.round(raw.durationMs * 10) / 10,
      request: {
        method: raw.method,
        url: r.redact(raw.url),
        headers: r.redactHeaders(raw.requestHeaders),
        ...(raw.requestBody === undefined ? {} : { body: cut(r.redact(raw.requestBody)) }),
      },
    };
    if (raw.status !== undefined) {
      exchange.response = {
        status: raw.status,
        headers: r.redactHeaders(raw.responseHeaders ?? {}),
        ...(raw.responseBody === undefined ? {} : { body: cut(r.redact(raw.responseBody)) }),
      };
    }
    if (raw.error) exchange.error = { code: raw.error.code, message: r.redact(raw.error.message) };
    this.#buffer().push(exchange);
    return id;
  }

  /**
   * Copies exchanges recorded elsewhere (already redacted) into this
   * evidence under fresh ids; answers the new id of each old one.
   */
  adopt(exchanges: readonly Exchange[]): Map<number, number> {
    const ids = new Map<number, number>();
    for (const exchange of exchanges) {
      const id = this.#next++;
      ids.set(exchange.id, id);
      this.#buffer().push({ ...exchange, id });
    }
    return ids;
  }

  pin(id: number): void {
    this.#pinned.add(id);
  }

  /**
   * Runs `fn` with every exchange it records (also across its awaits) going
   * to `buffer`, while other work records as before: one of a property's
   * runs in flight beside others.
   */
  into<T>(buffer: Exchange[], fn: () => Promise<T>): Promise<T> {
    return this.#into.run(buffer, fn);
  }

  #buffer(): Exchange[] {
    return this.#into.getStore() ?? this.#exchanges;
  }

  /** Starts a fresh buffer (a property's next run); answers what was there. */
  swap(next: Exchange[] = []): Exchange[] {
    const previous = this.#exchanges;
    this.#exchanges = next;
    return previous;
  }

  /** The evidence to report: pinned ones, the first and the last exchanges. */
  take(): { evidence: Exchange[]; omitted: number } {
    const all = this.#exchanges;
    if (all.length <= KEEP_FIRST + KEEP_LAST) return { evidence: all, omitted: 0 };
    const kept = all.filter(
      (ex, index) =>
        index < KEEP_FIRST || index >= all.length - KEEP_LAST || this.#pinned.has(ex.id),
    );
    return { evidence: kept, omitted: all.length - kept.length };
  }
}

/** Registers secrets a request or response carries, whatever their shape, before redaction. */
function learnSecrets(redactor: Redactor, raw: RawExchange): void {
  for (const body of [raw.requestBody, raw.responseBody]) {
    if (!body) continue;
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        redactor.learnFromJson(JSON.parse(body));
      } catch {
        // Not JSON after all: the shape net still applies.
      }
    } else if (body.includes('=')) {
      const form = Object.fromEntries(new URLSearchParams(body));
      redactor.learnFromJson(form);
    }
  }
  const auth = raw.requestHeaders.authorization;
  const basic = auth?.match(/^basic\s+(\S+)/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) redactor.add(decoded.slice(colon + 1), 'secret');
    redactor.add(basic, 'basic-credentials');
  }
  const query = raw.url.split('?')[1];
  if (query) redactor.learnFromJson(Object.fromEntries(new URLSearchParams(query)));
}

function cut(text: string): string {
  if (text.length <= MAX_BODY_CHARS) return text;
  return `${text.slice(0, MAX_BODY_CHARS)}… [${text.length - MAX_BODY_CHARS} more characters]`;
}
