import { type Dispatcher, request, errors as undiciErrors } from 'undici';
import type { Exchange, RawExchange } from '../evidence/exchange.js';
import { HarnessError } from '../violations/harness-error.js';

/** A response body beyond this is not read further: a misbehaving target cannot exhaust memory. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

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
  text: string;
  exchange: number;
  durationMs: number;
}

export interface HttpClientOptions {
  /** undici dispatcher: an Agent for a remote target, a MockAgent or an in-process one in tests. */
  dispatcher?: Dispatcher;
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

export interface SendOptions {
  /**
   * Set-up (a control call, a token request), never a check's subject: lost
   * on a kept-alive socket the server closed before any answer byte came
   * back, it is sent once more on a new connection. A check's own request
   * is never sent twice: whatever happened to it is its evidence.
   */
  setUp?: boolean;
}

/**
 * Sends exactly what it is given and records every exchange as evidence.
 * Network failures become HarnessErrors (verdict `error`), never violations:
 * an unreachable target is not a target that broke a rule.
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
    if (!options.setUp) return this.#send(req, recorder, this.#options.dispatcher);
    try {
      return await this.#send(req, recorder, this.#options.dispatcher);
    } catch (error) {
      if (!(error instanceof HarnessError) || !closedBeforeAnswer.has(error)) throw error;
      // The failed try stays in the evidence; the retry is a new exchange beside it.
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
    dispatcher: Dispatcher | undefined,
  ): Promise<WireResponse> {
    const startedAt = new Date();
    const started = performance.now();
    const url = new URL(req.url);
    const requestHeaders = flatten(req.headers);
    const requestBody = bodyText(req.body);
    let answered = false;
    try {
      const res = await request(url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        headersTimeout: this.#options.timeoutMs,
        bodyTimeout: this.#options.timeoutMs,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
        ...(dispatcher ? { dispatcher } : {}),
      });
      answered = true;
      const text = await readCapped(res.body);
      const durationMs = performance.now() - started;
      const headers = flattenResponse(res.headers);
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
      });
      return {
        requestPath: url.pathname + url.search,
        status: res.statusCode,
        headers,
        text,
        exchange,
        durationMs,
      };
    } catch (cause) {
      const error = toHarnessError(cause, req, this.#options.timeoutMs);
      if (!answered && closedSocket(cause)) closedBeforeAnswer.add(error);
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
      });
      throw error;
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

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > MAX_RESPONSE_BYTES) {
      chunks.push(buf.subarray(0, buf.length - (size - MAX_RESPONSE_BYTES)));
      body.destroy();
      return `${Buffer.concat(chunks).toString('utf8')}… [response cut at ${MAX_RESPONSE_BYTES} bytes]`;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function toHarnessError(cause: unknown, req: WireRequest, timeoutMs: number): HarnessError {
  const where = `${req.method} ${new URL(req.url).origin}`;
  if (
    cause instanceof undiciErrors.HeadersTimeoutError ||
    cause instanceof undiciErrors.BodyTimeoutError ||
    cause instanceof undiciErrors.ConnectTimeoutError ||
    (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError'))
  ) {
    return new HarnessError('HARNESS_TIMEOUT', `${where}: no answer within ${timeoutMs} ms`, {
      cause,
    });
  }
  const code = (cause as { code?: string } | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new HarnessError(
    'HARNESS_NETWORK',
    `${where}: ${code ? `${code} ` : ''}${message}`.trim(),
    { cause },
  );
}

function flatten(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function flattenResponse(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function bodyText(body: string | Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}
