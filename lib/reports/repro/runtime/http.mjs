// How a reproduction sends: node:http and node:https, nothing installed. No redirect is ever
// followed (a 3xx is an answer like any other; clean-up included), every body is read up to one
// cap, and requests the check had in flight together are sent together again: each on a warm
// connection of its own with all of it written but its last byte, then all last bytes at once.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { headersFrom } from './headers.mjs';

/** The suite's cap on an answer's body: more is the target's finding, read no further. */
export const MAX_BODY = 2 * 1024 * 1024;
/** One request, from sending to the last byte of its answer. */
const TIMEOUT_MS = 30_000;

/** No answer came: the target refused the connection, reset it or took too long. */
export class NoAnswer extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

/** Closes the kept-alive connections (at the end, so that the process can exit). */
export function closeConnections() {
  for (const agent of Object.values(agents)) agent.destroy();
}

/**
 * Sends one request `{url, method, headers, body}`; answers `{status, headers, text, json, overCap}`.
 * A kept-alive connection the target closed (its keep-alive timeout) just as the request went out
 * on it fails before any answer (a reset, a broken pipe): the request is sent once more, on a new
 * connection, as the suite's own client does (lib/client/http-client.ts).
 */
export async function send(req) {
  try {
    return await sendOn(req, true);
  } catch (error) {
    if (!(error instanceof NoAnswer) || !error.onReusedConnection) throw error;
    return sendOn(req, false);
  }
}

function sendOn(req, keptAlive) {
  const url = new URL(req.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const out = request(url, {
      method: req.method,
      headers: withLength(req),
      agent: keptAlive ? agents[url.protocol] : false,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    let answered = false;
    out.once('response', () => {
      answered = true;
    });
    answer(out, resolve, (error) => {
      if (!answered && out.reusedSocket && CLOSED.has(error.code)) error.onReusedConnection = true;
      reject(error);
    });
    out.end(req.body);
  });
}

/** How a connection the target closed fails a request written on it. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Sends requests together: each connects first (a warm connection of its own), writes all of
 * itself but its last byte, and once all have, the last bytes go out one after another in one
 * turn of the event loop, so that they arrive as one race, not one after another.
 */
export async function sendTogether(reqs) {
  const sockets = await Promise.all(reqs.map((req) => connected(new URL(req.url))));
  const held = sockets.map((socket) => new LastByteHeld(socket));
  const answers = reqs.map((req, i) => {
    const url = new URL(req.url);
    const connection = held[i];
    return new Promise((resolve, reject) => {
      const out = httpRequest({
        method: req.method,
        path: url.pathname + url.search,
        headers: { host: url.host, ...withLength(req) },
        setHost: false,
        createConnection: () => connection,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      answer(out, resolve, reject);
      out.on('finish', () => connection.ready());
      out.end(req.body);
    });
  });
  // Every request written but its last byte: release them all at once.
  await Promise.all(held.map((connection) => connection.written));
  for (const connection of held) connection.release();
  try {
    return await Promise.all(answers);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

function pairsOf(raw) {
  const pairs = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
}

function withLength(req) {
  const headers = { ...req.headers };
  const hasBody = req.body !== undefined;
  if (hasBody || ['POST', 'PUT', 'PATCH'].includes(req.method)) {
    headers['content-length'] = String(hasBody ? Buffer.byteLength(req.body) : 0);
  }
  return headers;
}

function connected(url) {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tlsConnect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host })
        : netConnect({ host, port });
    const ready = url.protocol === 'https:' ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => socket.destroy(new NoAnswer('ETIMEDOUT')), TIMEOUT_MS);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new NoAnswer(error.code ?? error.message));
    });
  });
}

/** Reads the answer of `out` into `{status, headers, text, json, overCap}`, its body up to MAX_BODY. */
function answer(out, resolve, reject) {
  out.on('error', (error) =>
    reject(
      new NoAnswer(
        error.name === 'TimeoutError' || error.name === 'AbortError'
          ? 'ETIMEDOUT'
          : (error.code ?? error.message),
      ),
    ),
  );
  out.on('response', (res) => {
    const chunks = [];
    let size = 0;
    let overCap = false;
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json;
      if (!overCap) {
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
      }
      resolve({
        status: res.statusCode,
        headers: headersFrom(pairsOf(res.rawHeaders)),
        text,
        json,
        overCap,
      });
    };
    res.on('data', (chunk) => {
      if (overCap) return;
      size += chunk.length;
      if (size > MAX_BODY) {
        overCap = true;
        chunks.push(chunk.subarray(0, chunk.length - (size - MAX_BODY)));
        res.destroy();
        done();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => {
      if (!overCap) done();
    });
    res.on('error', (error) => {
      if (!overCap) reject(new NoAnswer(error.code ?? error.message));
    });
  });
}

/**
 * A connection that passes everything through but the last byte written so far, until
 * `release()`: the request is on the wire but for one byte, so the target cannot start on it.
 */
class LastByteHeld extends Duplex {
  #socket;
  #held;
  #released = false;
  #ready;
  constructor(socket) {
    super();
    this.#socket = socket;
    this.written = new Promise((resolve) => {
      this.#ready = resolve;
    });
    socket.on('data', (chunk) => {
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (error) => this.destroy(error));
  }
  /** The request is written whole (but the byte held). */
  ready() {
    this.#ready();
  }
  release() {
    this.#released = true;
    if (this.#held) this.#socket.write(this.#held);
    this.#held = undefined;
  }
  _read() {
    this.#socket.resume();
  }
  _write(chunk, _encoding, callback) {
    if (this.#released) {
      this.#socket.write(chunk, callback);
      return;
    }
    const all = this.#held ? Buffer.concat([this.#held, chunk]) : chunk;
    this.#held = all.subarray(all.length - 1);
    const head = all.subarray(0, all.length - 1);
    if (head.length > 0) this.#socket.write(head, callback);
    else callback();
  }
  _final(callback) {
    callback();
  }
  _destroy(error, callback) {
    this.#socket.destroy();
    callback(error);
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  setTimeout(ms, callback) {
    this.#socket.setTimeout(ms, callback);
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
}
