import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * The parts of undici the suite uses, each loaded from its own module rather
 * than through the package's index. The index also loads what the suite never
 * uses (fetch, WebSocket, EventSource, the cache, mocks, proxies), and it is
 * loaded on both threads of a run, the CLI's and the checks' worker.
 * Measured, eight alternating pairs of full runs against the bundled
 * reference: 0.7 CPU-seconds and ~9 MB of peak memory less, 6.43 s wall
 * against 6.85 s (median).
 *
 * These are the very files the index re-exports, so the classes are the same
 * (an `instanceof` holds whichever way a module loaded them, a test's
 * MockAgent included), at the version package-lock.json pins;
 * test/engine/undici-parts.test.ts fails if an upgrade moves one.
 */
const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;

/** An answer as read off the wire. */
interface Answer {
  statusCode: number;
  headers: Undici.Dispatcher.ResponseData['headers'];
  /** The body's bytes, in a buffer of its own; when `over`, the first `maxBytes` of them. */
  body: Buffer;
  /** The body went on past `maxBytes`: nothing more was read, and the connection was closed. */
  over: boolean;
}

/** A request on its way: its answer, and how to end it early. */
export interface InFlight {
  readonly answer: Promise<Answer>;
  /** The status line and headers of an answer came back (an informational 1xx is not one). */
  readonly answered: boolean;
  /** Ends the request (a deadline): `answer` rejects with `reason`, unless it settled already. */
  abort(reason: Error): void;
}

export interface OutgoingRequest {
  dispatcher: Undici.Dispatcher;
  method: string;
  headers: Record<string, string | string[]>;
  body: string | Uint8Array | null;
  /** Read no further than this many bytes of the body. */
  maxBytes: number;
}

/**
 * Sends a request through `dispatcher` with the URL's origin, path and query,
 * and reads its answer into one buffer. This is undici's `request` without
 * its response stream and abort signal: a handler of undici's own dispatch
 * interface collects the body. The stream, the signal's listeners and the
 * adapters between undici's two handler interfaces were most of what undici
 * spent on each of a run's requests; nothing of the answer is read
 * differently.
 */
export function dispatchRequest(url: URL, options: OutgoingRequest): InFlight {
  const reader = new AnswerReader(options.maxBytes);
  try {
    options.dispatcher.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: options.method as Undici.Dispatcher.HttpMethod,
        headers: options.headers,
        body: options.body,
        // The caller's deadline is the one timeout of the whole exchange (http-client.ts).
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      reader,
    );
  } catch (error) {
    // Refused before a byte went out (the credentials guard, invalid options).
    reader.fail(error);
  }
  return reader;
}

/** undici's handler of one request: the answer, collected up to a cap. */
class AnswerReader implements Undici.Dispatcher.DispatchHandler, InFlight {
  readonly answer: Promise<Answer>;
  answered = false;
  readonly #maxBytes: number;
  #resolve: (answer: Answer) => void = () => {};
  #reject: (reason: unknown) => void = () => {};
  #settled = false;
  #controller: Undici.Dispatcher.DispatchController | undefined;
  /** Aborted before undici started the request: it is ended as it starts. */
  #abortedEarly: Error | undefined;
  #statusCode = 0;
  #headers: Answer['headers'] = {};
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.answer = new Promise<Answer>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  abort(reason: Error): void {
    if (this.#settled) return;
    this.fail(reason);
    if (this.#controller) this.#controller.abort(reason);
    else this.#abortedEarly = reason;
  }

  fail(reason: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#chunks = [];
    this.#reject(reason);
  }

  onRequestStart(controller: Undici.Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortedEarly) controller.abort(this.#abortedEarly);
  }

  onResponseStart(
    _controller: Undici.Dispatcher.DispatchController,
    statusCode: number,
    headers: Answer['headers'],
  ): void {
    // An informational answer (1xx): the final one is still to come, as undici's request waits for it.
    if (statusCode < 200) return;
    this.answered = true;
    this.#statusCode = statusCode;
    this.#headers = headers;
  }

  onResponseData(controller: Undici.Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#size + chunk.length > this.#maxBytes) {
      this.#settle(true);
      // Like curl's --max-filesize: no more is read, and the connection goes with the rest of it.
      controller.abort(new Error(`answer over ${this.#maxBytes} bytes`));
      return;
    }
    this.#size += chunk.length;
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.#settle(false);
  }

  onResponseError(_controller: Undici.Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  #settle(over: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    const body = Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, body, over });
  }
}
