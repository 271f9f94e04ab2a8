import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import type { ExchangeRecorder, HttpClient, WireRequest, WireResponse } from './http-client.js';

/**
 * Last-byte synchronisation, the technique of race-condition testing tools
 * (Turbo Intruder's last-byte sync, the HTTP/1.1 form of the single-packet
 * attack): requests that must reach the target together each get a warm
 * connection of their own; every request is written but for its last byte,
 * so that the target has read and parsed all of it and waits for one byte;
 * once every request is that far, the last bytes are written one after
 * another in a single turn of the event loop. What the target sees apart is
 * then microseconds, however busy this machine is and however long the
 * requests took to send: a busy machine can delay the whole race, not split it.
 *
 * Warm: before its request, each racer's connection carries one request that
 * costs no key anything (`GET /` of the target's origin, no credentials), so
 * the target has accepted the connection and reads from it like any other
 * before the race; a connection first seen with the race would be read an
 * event-loop turn later than the others.
 *
 * The connections are opened the way the session opens all of its own (its
 * undici connector, through dispatcher.ts), one single-connection dispatcher
 * per racer (`RacerConnections`), and every exchange, warm-ups included, is recorded through the
 * session's `HttpClient` like any other request; the racing ones are marked
 * with the number of their race (`together`).
 */

/** Opens a racer's own connection to `origin`, showing `onSocket` each socket before its first byte. */
export type RacerConnections = (origin: URL, onSocket: (socket: Socket) => void) => Dispatcher;

/**
 * The writes of one connection. Until `arm()` they go through; once armed,
 * every write goes out at once but for its final byte, which waits for
 * `release()`. `complete` resolves once a whole HTTP/1.1 request (its head
 * and the body its Content-Length announces) has been written since `arm()`
 * but for that byte, and handed to the operating system (each write's
 * callback called: a large body leaves the socket's buffer over several
 * turns, and its last byte must not wait behind it).
 */
export class LastByteGate {
  #socket: Socket | undefined;
  #write: Socket['write'] | undefined;
  #armed = false;
  #released = false;
  #held: Buffer | undefined;
  /** The request's head as written so far, until its blank line is found. */
  #head = Buffer.alloc(0);
  /** Bytes of the request: its head and body together, once the head is known. */
  #length: number | undefined;
  #written = 0;
  /** Writes of the armed request not yet handed to the operating system. */
  #pending = 0;
  #complete!: () => void;
  readonly complete = new Promise<void>((resolve) => {
    this.#complete = resolve;
  });

  /** Takes over a socket's writes (undici writes a request through `socket.write`). */
  install(socket: Socket): void {
    this.#socket = socket;
    const write = socket.write.bind(socket) as Socket['write'];
    this.#write = write;
    const gated = (
      chunk: string | Uint8Array,
      encoding?: BufferEncoding | ((error?: Error | null) => void),
      callback?: (error?: Error | null) => void,
    ): boolean => {
      const cb = typeof encoding === 'function' ? encoding : callback;
      const enc = typeof encoding === 'string' ? encoding : undefined;
      if (!this.#armed || this.#released) return enc ? write(chunk, enc, cb) : write(chunk, cb);
      const data =
        typeof chunk === 'string' ? Buffer.from(chunk, enc ?? 'utf8') : Buffer.from(chunk);
      const all = this.#held ? Buffer.concat([this.#held, data]) : data;
      this.#track(data);
      if (all.length === 0) {
        if (cb) process.nextTick(cb);
        return true;
      }
      this.#held = all.subarray(all.length - 1);
      if (all.length === 1) {
        if (cb) process.nextTick(cb);
        this.#check();
        return true;
      }
      this.#pending += 1;
      return write(all.subarray(0, all.length - 1), (error) => {
        this.#pending -= 1;
        cb?.(error);
        this.#check();
      });
    };
    socket.write = gated as Socket['write'];
  }

  /** From now on, the last byte written waits for `release()`. */
  arm(): void {
    this.#armed = true;
  }

  /** Writes the held byte and lets every later write through. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const socket = this.#socket;
    // The socket's own write method again (the gate was an own property over its prototype's).
    if (socket) Reflect.deleteProperty(socket, 'write');
    const held = this.#held;
    this.#held = undefined;
    if (!socket || !held || socket.destroyed || !this.#write) return;
    try {
      this.#write(held);
    } catch {
      // A socket that broke meanwhile: the request's own promise reports it.
    }
  }

  /** Follows the request written so far: its head up to the blank line, then its body's length. */
  #track(data: Buffer): void {
    this.#written += data.length;
    if (this.#length === undefined) {
      this.#head = Buffer.concat([this.#head, data]);
      const end = this.#head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.#head.subarray(0, end).toString('latin1');
      const declared = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1];
      this.#length = end + 4 + (declared === undefined ? 0 : Number(declared));
      this.#head = Buffer.alloc(0);
    }
  }

  #check(): void {
    if (this.#length !== undefined && this.#written >= this.#length && this.#pending === 0)
      this.#complete();
  }
}

/** The warm-up of a racer's connection: the origin's root, no credentials, nothing that counts. */
function warmUp(req: WireRequest): WireRequest {
  return {
    method: 'GET',
    url: `${new URL(req.url).origin}/`,
    headers: { accept: '*/*' },
    channel: req.channel,
  };
}

interface Entry {
  /** The racer's place in the race: last bytes go out in this order. */
  place: number;
  req: WireRequest;
  recorder: ExchangeRecorder;
  resolve: (res: WireResponse) => void;
  reject: (error: unknown) => void;
}

/**
 * One race of `size` racers. Each racer hands its one request to `send`,
 * with its place in the race; once every racer has handed one over or ended
 * without (`racerEnded` before the race went off), the requests are sent
 * held at their last byte and released together, their last bytes in the
 * order of the racers' places (whatever order they were handed over in). A
 * request handed over after that is sent at once, on its own.
 */
export class HeldRace {
  readonly #size: number;
  readonly #http: HttpClient;
  readonly #open: RacerConnections | undefined;
  /** The number of this race in the session: every racing exchange of it carries it (`together`). */
  readonly group: number;
  readonly #entries: Entry[] = [];
  #ended = 0;
  #started = false;

  /** `open` undefined (a test's mock dispatcher): the requests are sent at once, unheld. */
  constructor(size: number, http: HttpClient, open: RacerConnections | undefined, group: number) {
    this.#size = size;
    this.#http = http;
    this.#open = open;
    this.group = group;
  }

  send(req: WireRequest, recorder: ExchangeRecorder, place = 0): Promise<WireResponse> {
    if (this.#started) return this.#http.send(req, recorder);
    return new Promise<WireResponse>((resolve, reject) => {
      this.#entries.push({ place, req, recorder, resolve, reject });
      this.#startWhenReady();
    });
  }

  /** A racer settled: before the race went off, it sent nothing, and the others no longer wait for it. */
  racerEnded(): void {
    if (this.#started) return;
    this.#ended += 1;
    this.#startWhenReady();
  }

  #startWhenReady(): void {
    if (this.#started || this.#entries.length + this.#ended < this.#size) return;
    this.#started = true;
    void this.#run();
  }

  async #run(): Promise<void> {
    const entries = [...this.#entries].sort((a, b) => a.place - b.place);
    const open = this.#open;
    const together = { together: this.group };
    if (!open) {
      for (const e of entries)
        this.#http
          .send(e.req, e.recorder, { ...together, place: e.place })
          .then(e.resolve, e.reject);
      return;
    }
    const racers = entries.map((entry) => {
      const gate = new LastByteGate();
      const origin = new URL(entry.req.url);
      const client = open(origin, (socket) => gate.install(socket));
      return { entry, gate, client };
    });
    // Warm: every connection open and read by the target before any racing byte is sent.
    await Promise.all(
      racers.map(({ entry, client }) =>
        this.#http
          .send(warmUp(entry.req), entry.recorder, { dispatcher: client, warmUp: true })
          .catch(noop),
      ),
    );
    const sending = racers.map((r) => {
      r.gate.arm();
      const sent = this.#http.send(r.entry.req, r.entry.recorder, {
        ...together,
        place: r.entry.place,
        dispatcher: r.client,
        // A control request is set-up: a control API may close a reused connection (the protocol
        // asks nothing of it there), and the race's roll or revoke lost that way is sent again.
        ...(r.entry.req.channel === 'control' ? { setUp: true } : {}),
      });
      // Held: written but for its last byte, or already failed or answered.
      const ready = Promise.race([r.gate.complete, sent.then(noop, noop)]);
      return { ...r, sent, ready };
    });
    await Promise.all(sending.map((r) => r.ready));
    // The race: every last byte, one after another, in this one turn of the event loop.
    for (const r of sending) r.gate.release();
    await Promise.all(
      sending.map(async (r) => {
        try {
          r.entry.resolve(await r.sent);
        } catch (error) {
          r.entry.reject(error);
        } finally {
          // Its one request answered or failed: the connection goes. Destroyed with one error
          // made once (closing makes a new one per connection, and the stream that ends the
          // socket formats its stack: a race of a thousand racers formatted a thousand).
          await r.client.destroy(RACE_OVER).catch(noop);
        }
      }),
    );
  }
}

function noop(): void {}

/** Why a racer's connection is destroyed once its request is done: not a failure of anything. */
const RACE_OVER = new Error("the race is over: the racer's connection is closed");
