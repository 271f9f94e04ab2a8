import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LastByteGate } from '../../lib/client/last-byte.js';
import { type Caller, Session, type SessionConfig } from '../../lib/client/session.js';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ReplayBook } from '../../lib/evidence/trace.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';

/**
 * A raw HTTP/1.1 server that watches the bytes of every connection: when a
 * request is complete, it notes (once everything readable in that turn of
 * its event loop has been read) how far every other connection's request
 * was, then answers 200. Requests held at their last byte are complete only
 * once every other racer's is there but for its last byte.
 */
interface Watching {
  origin: string;
  /** Per completed request: bytes still missing on each other connection that has begun one. */
  missingAtCompletion: number[][];
  close(): Promise<void>;
}

const servers: Watching[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function watchingServer(): Promise<Watching> {
  /** Per connection: what it has sent of its current request, and how many it completed. */
  const conns = new Map<Socket, { data: Buffer; length: number | undefined; done: number }>();
  const state: Watching = { origin: '', missingAtCompletion: [], close: async () => undefined };
  const lengthOf = (data: Buffer): number | undefined => {
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const declared = /\r\ncontent-length:\s*(\d+)/i.exec(data.subarray(0, end).toString('latin1'));
    return end + 4 + Number(declared?.[1] ?? 0);
  };
  const server: Server = createServer((socket) => {
    const conn = { data: Buffer.alloc(0), length: undefined as number | undefined, done: 0 };
    conns.set(socket, conn);
    socket.on('data', (chunk: Buffer) => {
      conn.data = Buffer.concat([conn.data, chunk]);
      conn.length ??= lengthOf(conn.data);
      if (conn.length === undefined || conn.data.length < conn.length) return;
      const warmUp = conn.data.subarray(0, 6).toString('latin1') === 'GET / ';
      conn.data = Buffer.alloc(0);
      conn.length = undefined;
      conn.done += 1;
      const answer = () =>
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
        );
      if (warmUp) {
        answer();
        return;
      }
      // After this turn's reads of the other connections: what had reached the server by then.
      setImmediate(() => {
        state.missingAtCompletion.push(
          [...conns.values()]
            .filter((other) => other !== conn)
            // A connection that completed its racing request (its second) misses nothing.
            .map((other) =>
              other.done >= 2 ? 0 : (other.length ?? Number.POSITIVE_INFINITY) - other.data.length,
            ),
        );
        answer();
      });
    });
    socket.on('close', () => conns.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of conns.keys()) socket.destroy();
      server.close(() => resolve());
    });
  servers.push(state);
  return state;
}

function configFor(origin: string): SessionConfig {
  return {
    origin,
    apiBaseUrl: `${origin}/api/on-demand/v1`,
    controlUrl: `${origin}/__control`,
    controlToken: 'control-token-of-the-test',
    capabilities: ['accounts', 'keys'],
    requestTimeoutMs: 30_000,
    dialect: REFERENCE_DIALECT,
  };
}

/** A caller whose exchanges go to a recorder the test reads. */
function recorded(): { caller: Caller; recorder: EvidenceRecorder } {
  const recorder = new EvidenceRecorder(new Redactor('odp'), new ReplayBook());
  return { recorder, caller: { recorder, note: () => undefined, provokes429: false } };
}

/** A socket that only records what is written to it, and calls each write back at once. */
class RecordingSocket {
  readonly written: string[] = [];
  destroyed = false;
  write(chunk: string | Uint8Array, encoding?: unknown, callback?: () => void): boolean {
    const cb = typeof encoding === 'function' ? (encoding as () => void) : callback;
    const enc = typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8';
    this.written.push(
      typeof chunk === 'string'
        ? Buffer.from(chunk, enc).toString('latin1')
        : Buffer.from(chunk).toString('latin1'),
    );
    if (cb) process.nextTick(cb);
    return true;
  }
}

function recordingSocket(): { socket: Socket; written: string[] } {
  const fake = new RecordingSocket();
  return { socket: fake as unknown as Socket, written: fake.written };
}

describe('LastByteGate', () => {
  it('lets writes through until armed, then holds the last byte of the request until released', async () => {
    const { socket, written } = recordingSocket();
    const gate = new LastByteGate();
    gate.install(socket);
    socket.write('GET / HTTP/1.1\r\n\r\n', 'latin1');
    expect(written).toEqual(['GET / HTTP/1.1\r\n\r\n']);
    gate.arm();
    let complete = false;
    void gate.complete.then(() => {
      complete = true;
    });
    // As undici writes a request with a body: its head, then the body.
    socket.write('POST /orders HTTP/1.1\r\ncontent-length: 7\r\n\r\n', 'latin1');
    await Promise.resolve();
    expect(complete).toBe(false);
    socket.write(Buffer.from('{"a":1}'));
    await gate.complete;
    expect(written.slice(1).join('')).toBe(
      'POST /orders HTTP/1.1\r\ncontent-length: 7\r\n\r\n{"a":1',
    );
    gate.release();
    expect(written.slice(1).join('')).toBe(
      'POST /orders HTTP/1.1\r\ncontent-length: 7\r\n\r\n{"a":1}',
    );
    // Released: what follows goes through whole, and a second release writes nothing.
    socket.write('x');
    gate.release();
    expect(written.at(-1)).toBe('x');
  });

  it('completes a request without a body at the end of its head', async () => {
    const { socket, written } = recordingSocket();
    const gate = new LastByteGate();
    gate.install(socket);
    gate.arm();
    socket.write('GET /account HTTP/1.1\r\nhost: x\r\n\r\n', 'latin1');
    await gate.complete;
    expect(written.join('')).toBe('GET /account HTTP/1.1\r\nhost: x\r\n\r');
    gate.release();
    expect(written.join('')).toBe('GET /account HTTP/1.1\r\nhost: x\r\n\r\n');
  });
});

describe('requests held at their last byte and released together (lib/client/last-byte.ts)', () => {
  it('completes no request before every racer has sent all but its last byte', async () => {
    const server = await watchingServer();
    const session = new Session(configFor(server.origin));
    const { caller, recorder } = recorded();
    try {
      const racing = session.racing(4, caller);
      const scope = await recorder.scope(() =>
        Promise.all([
          racing
            .racer(0)
            .send({ method: 'GET', path: '/account', auth: { kind: 'bearer', token: 't' } }),
          racing
            .racer(1)
            .send({ method: 'POST', path: '/orders', json: { external_id: 'x'.repeat(3000) } }),
          racing.racer(2).send({ method: 'POST', path: '/orders/o_1/cancel' }),
          racing.racer(3).control.capabilities(),
        ]),
      );
      if ('error' in scope) throw scope.error;
      const [account, order, cancel] = scope.value;
      expect([account.status, order.status, cancel.status]).toEqual([200, 200, 200]);
      // Four requests, each complete only when the other three were one byte short at most.
      expect(server.missingAtCompletion).toHaveLength(4);
      for (const missing of server.missingAtCompletion) {
        expect(missing).toHaveLength(3);
        for (const bytes of missing) expect(bytes).toBeLessThanOrEqual(1);
      }
      // Every exchange is evidence: four warm-ups (GET / without credentials), then the four
      // racing requests, marked with the number of their race.
      const warmUps = scope.evidence.filter((e) => e.together === undefined);
      const raced = scope.evidence.filter((e) => e.together !== undefined);
      expect(warmUps.map((e) => `${e.request.method} ${e.request.url}`)).toEqual(
        Array(4).fill('GET /'),
      );
      expect(raced.map((e) => e.together)).toEqual([1, 1, 1, 1]);
      expect(raced.map((e) => e.channel).sort()).toEqual(['api', 'api', 'api', 'control']);
    } finally {
      await session.close();
    }
  });

  it('lets the others go when a racer ends without sending', async () => {
    const server = await watchingServer();
    const session = new Session(configFor(server.origin));
    const { caller } = recorded();
    try {
      const racing = session.racing(3, caller);
      const failing = Promise.reject(new Error('set-up failed'));
      void failing.catch(() => racing.racerEnded());
      const sent = [1, 2].map((place) => {
        const going = racing.racer(place).send({ method: 'GET', path: '/account' });
        void going.then(racing.racerEnded, racing.racerEnded);
        return going;
      });
      const answers = await Promise.all(sent);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
    } finally {
      await session.close();
    }
  });

  it('numbers each race of a session apart', async () => {
    const server = await watchingServer();
    const session = new Session(configFor(server.origin));
    const { caller, recorder } = recorded();
    try {
      for (let round = 0; round < 2; round++) {
        const racing = session.racing(2, caller);
        await Promise.all([
          racing.racer(0).send({ method: 'GET', path: '/account' }),
          racing.racer(1).send({ method: 'GET', path: '/account' }),
        ]);
      }
      const root = recorder.current();
      const marks = root.evidence.flatMap((e) => (e.together === undefined ? [] : [e.together]));
      expect(marks).toEqual([1, 1, 2, 2]);
    } finally {
      await session.close();
    }
  });
});
