import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { newDispatcher } from '../client/dispatcher.js';
import { HttpClient } from '../client/http-client.js';
import { HarnessError } from '../violations/harness-error.js';
import type { Answer, OwnRequest } from './answers.js';
import type { Director } from './director.js';
import { type ClientExchange, classOf, kindOf } from './exchange.js';

/** A request body beyond this is refused here (413), never passed on: a client cannot exhaust memory. */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Headers that belong to one connection (RFC 9110 §7.6.1), never passed on either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  // Answers are read as text: the target is asked for none it would have to compress.
  'accept-encoding',
]);

export interface LayerOptions {
  /** The target's origin. */
  target: string;
  timeoutMs: number;
}

/**
 * The recording, situation-playing layer in front of the sandbox: an HTTP
 * server on a loopback port that the partner's client is pointed at. Every
 * request is recorded as the client sent it and answered as the director
 * decides (passed on to the target, or a situation's answer); the target's
 * correct request path knows nothing of it. Requests are handled one at a
 * time, in the order they arrive.
 */
export class SituationLayer {
  readonly exchanges: ClientExchange[] = [];
  readonly #options: LayerOptions;
  readonly #dispatcher: Dispatcher;
  readonly #http: HttpClient;
  readonly #server: Server;
  #director: Director | undefined;
  #queue: Promise<void> = Promise.resolve();
  readonly #connections = new WeakMap<object, { id: number; openedMs: number; requests: number }>();
  #connectionCount = 0;
  #origin = '';

  constructor(options: LayerOptions) {
    this.#options = options;
    // The client's own credentials go on to the target, and only there.
    this.#dispatcher = newDispatcher({ origins: { api: options.target } });
    this.#http = new HttpClient({ dispatcher: this.#dispatcher, timeoutMs: options.timeoutMs });
    this.#server = createServer((req, res) => this.#onRequest(req, res));
    this.#server.on('connection', (socket) => {
      this.#connections.set(socket, {
        id: ++this.#connectionCount,
        openedMs: performance.now(),
        requests: 0,
      });
    });
    // A client's kept-alive sockets must not hold the layer open once the command has ended.
    this.#server.keepAliveTimeout = 5_000;
  }

  /** Listens on a free loopback port; answers the origin to give the client. */
  async listen(director: Director): Promise<string> {
    this.#director = director;
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.#server.address() as AddressInfo;
    this.#origin = `http://127.0.0.1:${port}`;
    return this.#origin;
  }

  /**
   * Stops listening, answers every request already taken, then drops what
   * connections are left: the command has ended, and a process it left
   * behind must not hold the grading open.
   */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    await this.#queue;
    this.#server.closeAllConnections();
    await closed;
    // What came in meanwhile on a connection still open is settled before the traffic is judged.
    await this.#queue;
    await this.#dispatcher.destroy().catch(() => undefined);
  }

  /** Sends a client's request on to the target as it came (connection headers aside). */
  readonly forward = async (ex: ClientExchange, body: Buffer | undefined): Promise<Answer> => {
    try {
      const res = await this.#http.send(
        {
          method: ex.method,
          url: `${this.#options.target}${ex.url}`,
          headers: passOn(ex.requestHeaders),
          ...(body && body.length > 0 ? { body } : {}),
          channel: 'api',
        },
        NOT_RECORDED,
      );
      return { status: res.status, headers: passOn(res.headers), body: res.text };
    } catch (error) {
      const harness =
        error instanceof HarnessError
          ? error
          : new HarnessError('HARNESS_BUG', error instanceof Error ? error.message : String(error));
      ex.error = { code: harness.code, message: harness.message };
      return badGateway(harness.message);
    }
  };

  /** A request of the layer's own to the target's API: not the client's, never recorded as its traffic. */
  readonly own: OwnRequest = async (req) => {
    const res = await this.#http.send(
      {
        method: req.method,
        url: `${this.#options.target}${req.path}`,
        headers: req.headers,
        ...(req.body === undefined ? {} : { body: req.body }),
        channel: 'api',
      },
      NOT_RECORDED,
    );
    return { status: res.status, headers: res.headers, body: res.text };
  };

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    const receivedMs = performance.now();
    const socket = this.#connections.get(req.socket) ?? {
      id: 0,
      openedMs: receivedMs,
      requests: 0,
    };
    socket.requests += 1;
    const connection = { id: socket.id, openedMs: socket.openedMs, first: socket.requests === 1 };
    const startedAt = new Date();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const method = (req.method ?? 'GET').toUpperCase();
      const url = req.url ?? '/';
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const ex: ClientExchange = {
        id: this.exchanges.length + 1,
        startedAt,
        receivedMs,
        answeredMs: receivedMs,
        connection,
        method,
        url,
        requestHeaders: headersOf(req),
        ...(body ? { requestBody: body.toString('utf8') } : {}),
        responseHeaders: {},
        kind: kindOf(method, url),
        cls: classOf(method, url),
        reworded: false,
        notes: [],
      };
      this.exchanges.push(ex);
      const handle = async () => {
        let answer: Answer;
        if (tooLarge) {
          answer = tooLargeAnswer();
          ex.status = answer.status;
          ex.responseHeaders = answer.headers;
          ex.responseBody = answer.body;
          ex.notes.push(`a body over ${MAX_REQUEST_BYTES} bytes: refused by the sandbox's layer`);
        } else {
          answer = await this.#director!.handle(ex, body);
        }
        // When the answer was handed over: the client cannot have it any sooner, so a wait
        // measured from here is never measured short, however late a busy loop runs.
        ex.answeredMs = performance.now();
        await send(res, answer);
      };
      // One at a time: the director decides each request's situation knowing every earlier one.
      this.#queue = this.#queue.then(handle).catch((error: unknown) => {
        ex.error = { code: 'HARNESS_BUG', message: String(error) };
        if (!res.headersSent) res.writeHead(502).end();
      });
    });
  }
}

const NOT_RECORDED = { record: () => 0 };

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function passOn(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  }
  return out;
}

function send(res: ServerResponse, answer: Answer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const body = Buffer.from(answer.body, 'utf8');
    res.on('finish', resolve);
    res.on('close', resolve);
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
    res.end(body);
  });
}

function badGateway(message: string): Answer {
  return {
    status: 502,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({
      title: 'Bad gateway',
      status: 502,
      detail: `The sandbox did not answer: ${message}`,
    }),
  };
}

function tooLargeAnswer(): Answer {
  return {
    status: 413,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({
      title: 'Content too large',
      status: 413,
      detail: `The sandbox's layer takes request bodies up to ${MAX_REQUEST_BYTES} bytes.`,
    }),
  };
}
