import type { Dispatcher } from 'undici';
import type { Exchange, RawExchange } from '../evidence/exchange.js';
import { type JsonText, readJsonText } from '../evidence/json-text.js';
import { HarnessError } from '../violations/harness-error.js';
import { deadline } from './deadline.js';
import { CredentialOriginError } from './dispatcher.js';
import { classifyNetworkError } from './network-error.js';
import { dispatchRequest } from './undici.js';

/**
 * The one cap on every body the suite reads (checks, control, pre-flight,
 * capabilities, the probes): beyond it nothing more is read and the
 * connection is closed, like curl's `--max-filesize` or Go's
 * `http.MaxBytesReader`. A misbehaving target cannot exhaust memory, and an
 * endless answer ends.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** An answer over the cap, in a report's words: the target's finding, never "unreachable". */
export const OVER_CAP_WORDS = `answer over ${MAX_BODY_BYTES / 1024 / 1024} MiB (the suite reads no further)`;

export interface WireRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string | string[]>;
  body?: string | Uint8Array;
  channel: Exchange['channel'];
}

export interface WireResponse {
  /** Path and query as sent. */
  requestPath: string;
  status: number;
  headers: Record<string, string>;
  /** The body as text; when it went on past MAX_BODY_BYTES (`over`), its first 64 KiB. */
  text: string;
  /** The body went on past MAX_BODY_BYTES: `text` is its beginning. */
  over?: true;
  /** `text` read as JSON (within the nesting bound), when not over: read once, where it was recorded. */
  read?: JsonText;
  exchange: number;
  durationMs: number;
}

export interface HttpClientOptions {
  /** From dispatcher.ts (the suite's own); a MockAgent in tests. */
  dispatcher: Dispatcher;
  timeoutMs: number;
  /**
   * A dispatcher with a connection of its own, for the one retry of a set-up
   * request lost to a closing socket (closed after that request); without it
   * the retry goes through `dispatcher` (which drops the dead socket).
   */
  freshConnection?: () => Dispatcher;
}

/** Where an exchange is recorded; answers its evidence id. */
export interface ExchangeRecorder {
  record(raw: RawExchange): number;
}

/** For what is sent before the run has evidence (the start-up probe, pre-flight, capabilities). */
export const UNRECORDED: ExchangeRecorder = { record: () => 0 };

export interface SendOptions {
  /**
   * Set-up (a control call, a token request), never a check's subject: lost
   * on a kept-alive socket the server closed before any answer byte came
   * back, it is sent once more on a new connection. A check's own request
   * is never sent twice: whatever happened to it is its evidence.
   */
  setUp?: boolean;
  /** The dispatcher of this request alone (a racer's connection of its own, last-byte.ts). */
  dispatcher?: Dispatcher;
  /** The number of the race the request is part of: recorded with its exchange (last-byte.ts). */
  together?: number;
  /** The racer's place in its race: last bytes go out in this order (recorded for a replay). */
  place?: number;
  /** A racer's warm-up (last-byte.ts): recorded as such, never a step a reproduction replays. */
  warmUp?: true;
}

/**
 * The one wrapper every request of the suite goes through: sends exactly
 * what it is given on the suite's dispatcher (dispatcher.ts: no redirects,
 * credentials only to their origin), within the timeout, reads the answer up
 * to MAX_BODY_BYTES and records the exchange as evidence (redacted where it
 * is recorded). Network failures become HarnessErrors (verdict `error`),
 * never violations: an unreachable target is not a target that broke a rule.
 */
export class HttpClient {
  readonly #options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.#options = options;
  }

  /** Sends `req` and records the exchange in `recorder`: the caller's (the check's) evidence. */
  async send(
    req: WireRequest,
    recorder: ExchangeRecorder,
    options: SendOptions = {},
  ): Promise<WireResponse> {
    const dispatcher = options.dispatcher ?? this.#options.dispatcher;
    const race = {
      ...(options.together === undefined ? {} : { together: options.together }),
      ...(options.place === undefined ? {} : { place: options.place }),
      ...(options.warmUp ? { warmUp: true as const } : {}),
    };
    if (!options.setUp) return this.#send(req, recorder, dispatcher, race);
    try {
      return await this.#send(req, recorder, dispatcher, race);
    } catch (error) {
      if (!(error instanceof HarnessError) || !closedBeforeAnswer.has(error)) throw error;
      // The failed try stays in the evidence; the retry is a new exchange beside it, sent alone
      // (a racer's retry comes after its race: the race's check judges what the rounds show).
      const fresh = this.#options.freshConnection?.();
      try {
        return await this.#send(req, recorder, fresh ?? this.#options.dispatcher);
      } finally {
        await fresh?.close().catch(() => undefined);
      }
    }
  }

  async #send(
    req: WireRequest,
    recorder: ExchangeRecorder,
    dispatcher: Dispatcher,
    race: { together?: number; place?: number; warmUp?: true } = {},
  ): Promise<WireResponse> {
    const startedAt = new Date();
    const started = performance.now();
    const url = new URL(req.url);
    const requestHeaders = flatten(req.headers);
    const requestBody = bodyText(req.body);
    const inFlight = dispatchRequest(url, {
      dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      maxBytes: MAX_BODY_BYTES,
    });
    // The one deadline of the whole exchange, head and body (undici's own timers are off: they
    // fire before a busy loop reads an answer already there, see deadline.ts).
    const until = deadline(this.#options.timeoutMs, (reason) => inFlight.abort(reason));
    try {
      const res = await inFlight.answer;
      const durationMs = performance.now() - started;
      // Nothing of an answer over the cap can be parsed: only its beginning is kept to be shown,
      // and no string of the whole cap is ever made (a run against such a target makes thousands).
      const over = res.over;
      const text = over
        ? res.body.subarray(0, OVER_CAP_KEPT_BYTES).toString('utf8')
        : res.body.toString('utf8');
      const headers = flattenResponse(res.headers);
      // Read as JSON once, here, for the evidence and the caller both (an answer over the cap is not read).
      const read = over ? undefined : readJsonText(text);
      const exchange = recorder.record({
        channel: req.channel,
        startedAt,
        sentAt: performance.timeOrigin + started,
        durationMs,
        method: req.method,
        url: url.pathname + url.search,
        requestHeaders,
        ...(requestBody === undefined ? {} : { requestBody }),
        status: res.statusCode,
        responseHeaders: headers,
        responseBody: text,
        ...(over ? { responseOver: OVER_CAP_WORDS } : {}),
        ...(read ? { responseRead: read } : {}),
        ...race,
      });
      return {
        requestPath: url.pathname + url.search,
        status: res.statusCode,
        headers,
        text,
        ...(over ? { over: true as const } : {}),
        ...(read ? { read } : {}),
        exchange,
        durationMs,
      };
    } catch (cause) {
      const error = toHarnessError(cause, req, this.#options.timeoutMs);
      if (!inFlight.answered && closedSocket(cause)) closedBeforeAnswer.add(error);
      recorder.record({
        channel: req.channel,
        startedAt,
        sentAt: performance.timeOrigin + started,
        durationMs: performance.now() - started,
        method: req.method,
        url: url.pathname + url.search,
        requestHeaders,
        ...(requestBody === undefined ? {} : { requestBody }),
        error: { code: error.code, message: error.message },
        ...race,
      });
      throw error;
    } finally {
      until.clear();
    }
  }
}

/** Failures on a socket that closed before the status line of any answer came back. */
const closedBeforeAnswer = new WeakSet<HarnessError>();

/**
 * A kept-alive socket the server closed (after its keep-alive timeout) while
 * the request went out on it: undici's "other side closed", a reset, a broken
 * pipe. A timeout is not one: the server may be working on the request.
 */
function closedSocket(cause: unknown): boolean {
  const failure = cause as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const codes = [failure?.code, failure?.cause?.code];
  return codes.some(
    (code) => code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE',
  );
}

/** Of an answer over the cap, the beginning kept as its text (evidence shows 4,000 characters of it). */
const OVER_CAP_KEPT_BYTES = 64 * 1024;

/** The request's failure as a harness error; a request the guard refused is the suite's own bug. */
function toHarnessError(cause: unknown, req: WireRequest, timeoutMs: number): HarnessError {
  const where = `${req.method} ${new URL(req.url).origin}`;
  if (cause instanceof CredentialOriginError)
    return new HarnessError('HARNESS_BUG', `${where}: ${cause.message}`, { cause });
  const { code, words } = classifyNetworkError(cause, timeoutMs);
  return new HarnessError(code, `${where}: ${words}`, { cause });
}

/** Why a request got no answer, in words (`connection refused (ECONNREFUSED)`), from its harness error. */
export function networkWords(error: HarnessError, timeoutMs: number): string {
  return classifyNetworkError(error.cause, timeoutMs).words;
}

function flatten(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name] as string | string[];
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function flattenResponse(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function bodyText(body: string | Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}
