import { AsyncLocalStorage } from 'node:async_hooks';
import type { Faker } from '@faker-js/faker';
import { headOf } from './detached.js';
import type { Exchange, RawExchange } from './exchange.js';
import { jsonContainer } from './json-text.js';
import { HANDED_OUT_BY_CONTROL, HANDED_OUT_BY_TOKEN, type Redactor } from './redactor.js';
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
    const json = {
      request: jsonContainer(raw.requestBody),
      response: jsonContainer(raw.responseBody, raw.responseRead),
    };
    learnSecrets(r, raw, json);
    this.#book.add(id, raw);
    // Redacting the request's headers learns the credentials they carry: now, in order.
    const requestHeaders = r.redactHeaders(raw.requestHeaders);
    const { method, url, requestBody, status, responseHeaders, responseBody, responseOver, error } =
      raw;
    const exchange: Exchange = {
      id,
      channel: raw.channel,
      startedAt: raw.startedAt.toISOString(),
      durationMs: Math.round(raw.durationMs * 10) / 10,
    } as Exchange;
    const parts: [keyof Exchange, () => unknown][] = [
      [
        'request',
        () => ({
          method,
          url: r.redact(url),
          headers: requestHeaders,
          ...(requestBody === undefined ? {} : { body: cut(r.redact(requestBody)) }),
        }),
      ],
    ];
    if (status !== undefined) {
      parts.push([
        'response',
        () => ({
          status,
          headers: r.redactHeaders(responseHeaders ?? {}, { learn: false }),
          ...(responseBody === undefined
            ? {}
            : { body: cut(r.redact(responseBody), responseOver) }),
        }),
      ]);
    }
    if (error)
      parts.push(['error', () => ({ code: error.code, message: r.redact(error.message) })]);
    // Short bodies are redacted when first read: most exchanges of a long check are trimmed from
    // its evidence (`take`) and never read. Later, they are redacted with every secret learned by
    // then, never fewer. Long ones now, so that no exchange holds a whole body it will cut.
    const later = (requestBody?.length ?? 0) + (responseBody?.length ?? 0) <= MAX_BODY_CHARS;
    for (const [key, make] of parts) {
      if (later) whenRead(exchange, key, make);
      else Object.assign(exchange, { [key]: make() });
    }
    if (raw.together !== undefined) exchange.together = raw.together;
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

/**
 * `object[key]` made by `make` when first read (by code, JSON.stringify or a structured clone),
 * then kept as a plain property in the same place among the others.
 */
function whenRead(object: object, key: PropertyKey, make: () => unknown): void {
  Object.defineProperty(object, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      Object.defineProperty(object, key, {
        value,
        configurable: true,
        enumerable: true,
        writable: true,
      });
      return value;
    },
  });
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

/**
 * Registers the secrets an exchange shows the run holds, before redaction:
 * every credential the request carried (Basic, Bearer, credential fields of
 * its form, JSON body or query: the suite's own), the access token a token
 * answer hands out and the Secret Key a control API answer hands out. Other
 * values of an answer are the target's words, never taken for secrets,
 * whatever their field is called: a target must not be able to hide text of
 * a report by answering `"token": "application/json"`.
 */
function learnSecrets(
  redactor: Redactor,
  raw: RawExchange,
  json: { request: unknown; response: unknown },
): void {
  const sent = bodyFields(raw.requestBody, json.request);
  redactor.learnFields(sent);
  const auth = raw.requestHeaders.authorization;
  const basic = auth?.match(/^basic\s+(\S+)/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) redactor.add(decodeForm(decoded.slice(colon + 1)), 'secret');
    redactor.add(basic, 'basic-credentials');
  }
  const bearer = auth?.match(/^bearer\s+(\S+)/i)?.[1];
  if (bearer) redactor.add(bearer, 'token');
  const query = raw.url.split('?')[1];
  if (query) redactor.learnFields(Object.fromEntries(new URLSearchParams(query)));
  if (raw.status === undefined || raw.status < 200 || raw.status >= 300) return;
  // Fields are found only in objects and arrays: an answer that is JSON of another kind shows none.
  if (raw.channel === 'control') {
    redactor.learnFields(json.response, HANDED_OUT_BY_CONTROL);
  } else if (sent && typeof sent === 'object' && 'grant_type' in sent) {
    redactor.learnFields(json.response, HANDED_OUT_BY_TOKEN);
  }
}

/**
 * The parts of `text` its redacted form hides (`[REDACTED…]` marks): the
 * literal pieces between marks are found in order, what lies between them
 * was hidden. Longest first, so one never cuts another.
 */
function hiddenIn(text: string, redacted: string): string[] {
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

/** A request body's fields: JSON (`json`, as jsonContainer read it), or a form. */
function bodyFields(body: string | undefined, json: unknown): unknown {
  if (!body) return undefined;
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return json;
  return body.includes('=') ? Object.fromEntries(new URLSearchParams(body)) : undefined;
}

function decodeForm(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, '%20'));
  } catch {
    return part;
  }
}

/**
 * A body as evidence keeps: its first MAX_BODY_CHARS, copied out (a view
 * would keep the whole answer alive as long as the evidence lives).
 */
function cut(text: string, over?: string): string {
  const overCap = over ? ` [${over}]` : '';
  if (text.length <= MAX_BODY_CHARS) return overCap ? `${text}…${overCap}` : text;
  const more = text.length - MAX_BODY_CHARS;
  return `${headOf(text, MAX_BODY_CHARS)}… [${more} more characters${overCap ? ' read' : ''}]${overCap}`;
}
