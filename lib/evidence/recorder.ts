import { AsyncLocalStorage } from 'node:async_hooks';
import type { Faker } from '@faker-js/faker';
import type { Exchange, RawExchange } from './exchange.js';
import type { Redactor } from './redactor.js';
import { emptyScope, type Scope, type Scoped } from './scope.js';
import type { EnvName, ReplayBook, ReplayTrace } from './trace.js';

/** Bodies beyond this many characters are cut in evidence (the check still sees them whole). */
const MAX_BODY_CHARS = 4_000;
/** A check that makes hundreds of requests (rate limits) keeps its first and last ones. */
const KEEP_FIRST = 15;
const KEEP_LAST = 25;

/**
 * Records exchanges into the scope the work runs in (`scope`). Everything
 * is redacted here, at the point of recording, so nothing downstream
 * (reports, logs, vitest output) can leak; the replay step of each exchange
 * keeps no secret either (trace.ts).
 */
export class EvidenceRecorder {
  readonly #redactor: Redactor;
  /** Work recorded outside any scope (the dialect probe, clean-up off the record). */
  readonly #root = emptyScope();
  readonly #scopes = new AsyncLocalStorage<Scope>();
  /**
   * Every exchange as a replay step, and their ids: the book of the session
   * (a check file's, shared by its recorders), never of this module, since
   * the engine's modules outlive a file (lib/runner/fresh-modules.ts).
   */
  readonly #book: ReplayBook;

  constructor(redactor: Redactor, book: ReplayBook) {
    this.#redactor = redactor;
    this.#book = book;
  }

  /** A credential of the run's: a replay reads it from the environment variable `name`. */
  credential(value: string | undefined, name: EnvName): void {
    this.#book.env(value, name);
  }

  record(raw: RawExchange): number {
    const id = this.#book.exchangeId();
    const r = this.#redactor;
    learnSecrets(r, raw);
    this.#book.add(id, raw);
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
    const scope = this.current();
    scope.evidence.push(exchange);
    scope.steps.push(id);
    return id;
  }

  /** The scope work runs in here: the innermost `scope`, else the recorder's root. */
  current(): Scope {
    return this.#scopes.getStore() ?? this.#root;
  }

  pin(id: number): void {
    this.current().pinned.add(id);
  }

  /**
   * Runs `fn` in a scope of its own: what it records, its violations and
   * notes (also across its awaits, and beside other scopes in flight) go
   * there, and nowhere else. Answers its value or error with what it collected.
   */
  async scope<T>(fn: () => Promise<T>, faker?: Faker): Promise<Scoped<T>> {
    const scope = emptyScope(faker ?? this.current().faker);
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await this.#scopes.run(scope, fn) };
    } catch (error) {
      outcome = { error: error ?? new Error('threw undefined') };
    }
    return { ...outcome, ...scope };
  }

  /**
   * Keeps the exchanges of a finished scope (a property's failing run, work
   * shared by a file's checks) in the current scope, under their own ids.
   * Its violations and notes are the caller's to keep or not.
   */
  keep(scoped: Scope): void {
    const scope = this.current();
    scope.evidence.push(...scoped.evidence);
    scope.steps.push(...scoped.steps);
    scope.held.push(...scoped.held);
    for (const id of scoped.pinned) scope.pinned.add(id);
  }

  /** The evidence to report of the current scope: pinned ones, the first and the last exchanges. */
  take(): { evidence: Exchange[]; omitted: number } {
    return trimmed(this.current());
  }

  /**
   * The replay trace of a scope: its exchanges and those they depend on,
   * secrets as variables; `also` (a judgement's text) may name more variables.
   */
  trace(scope: Scope, also = ''): ReplayTrace {
    const trace = this.#book.trace(scope.steps, also);
    // A last net: a credential the check made up itself (a forged token, a wrong secret) is no
    // variable of the book; what the redactor would hide becomes one made up again at replay,
    // so the file holds no secret and a replay never sends a placeholder.
    const made = (text: string): string =>
      hiddenIn(text, this.#redactor.redact(text)).reduce(
        (out, secret) => out.split(secret).join(`{{${this.#book.made(secret)}}}`),
        text,
      );
    for (const step of trace.steps) {
      step.url = made(step.url);
      for (const [name, value] of Object.entries(step.headers)) step.headers[name] = made(value);
      if (step.basic !== undefined) step.basic = made(step.basic);
      if (step.body !== undefined) step.body = made(step.body);
    }
    for (const name of JSON.stringify(trace.steps).match(/\{\{v\d+\}\}/g) ?? []) {
      const def = this.#book.variable(name.slice(2, -2));
      if (def?.kind === 'made') trace.vars[name.slice(2, -2)] = def;
    }
    return trace;
  }

  /** `text` with the values a replay learns from answers named as their variables. */
  template(text: string): string {
    return this.#book.template(text);
  }
}

/** A scope's evidence trimmed: pinned ones, the first and the last exchanges (a rate-limit check's hundreds). */
export function trimmed(scope: Scope): { evidence: Exchange[]; omitted: number } {
  const all = scope.evidence;
  if (all.length <= KEEP_FIRST + KEEP_LAST) return { evidence: all, omitted: 0 };
  const kept = all.filter(
    (ex, index) => index < KEEP_FIRST || index >= all.length - KEEP_LAST || scope.pinned.has(ex.id),
  );
  return { evidence: kept, omitted: all.length - kept.length };
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

/**
 * The parts of `text` its redacted form hides (`[REDACTED…]` marks): the
 * literal pieces between marks are found in order, what lies between them
 * was hidden. Longest first, so one never cuts another.
 */
export function hiddenIn(text: string, redacted: string): string[] {
  if (redacted === text) return [];
  const pieces = redacted.split(/\[REDACTED[^\]]*\]/);
  const hidden: string[] = [];
  let at = pieces[0]?.length ?? 0;
  for (const [i, piece] of pieces.entries()) {
    if (i === 0) continue;
    const last = i === pieces.length - 1;
    // Two marks side by side: what both hid is one part, up to the next literal piece.
    if (piece === '' && !last) continue;
    const end = piece === '' ? text.length : text.indexOf(piece, at + 1);
    if (end < 0) return [];
    if (end > at) hidden.push(text.slice(at, end));
    at = end + piece.length;
  }
  return [...new Set(hidden)].sort((a, b) => b.length - a.length);
}

function cut(text: string): string {
  if (text.length <= MAX_BODY_CHARS) return text;
  return `${text.slice(0, MAX_BODY_CHARS)}… [${text.length - MAX_BODY_CHARS} more characters]`;
}
