import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Session, type SessionConfig } from '../../lib/client/session.js';
import type { Key } from '../../lib/client/types.js';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { ReplayBook } from '../../lib/evidence/trace.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { HarnessError } from '../../lib/violations/harness-error.js';

/**
 * A server that closes a kept-alive socket while a request
 * goes out on it. This one says `Keep-Alive: timeout=5` (Node's default) yet
 * drops every connection as its second request arrives, before any answer
 * byte: what a server whose idle timeout ran out under load does, with no
 * clock to wait for.
 */
interface Closing {
  origin: string;
  /** Requests answered. */
  answered: string[];
  /** Connections dropped as a request came in on them. */
  dropped: number;
  close(): Promise<void>;
}

const servers: Closing[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function closingServer(): Promise<Closing> {
  const perSocket = new WeakMap<Socket, number>();
  const state: Closing = { origin: '', answered: [], dropped: 0, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const seen = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, seen);
    if (seen > 1) {
      state.dropped += 1;
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      state.answered.push(`${req.method} ${req.url}`);
      const body =
        req.url === '/api/on-demand/v1/oauth/token'
          ? { access_token: `odp_at_${state.answered.length}`, expires_in: 3600 }
          : { protocol: 'odp-control/1', features: ['accounts', 'keys'], id: 'acc_1' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(state);
  return state;
}

/** One connection at a time (`connections: 1` below): the next request reuses the socket, every time. */
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

const key: Key = {
  accessKeyId: 'odp_test_ak_1',
  secretKey: 'odp_test_sk_1',
  mode: 'test',
  scopes: [],
  accountId: 'acc_1',
};

describe('set-up never blames the target for the network', () => {
  it('a control call lost on a socket the server closed is sent once more, on a new connection', async () => {
    const server = await closingServer();
    const recorded: EvidenceRecorder[] = [];
    const session = new Session(configFor(server.origin), {
      connections: 1,
      recorder: (redactor) =>
        recorded[recorded.push(new EvidenceRecorder(redactor, new ReplayBook())) - 1]!,
    });
    try {
      for (let i = 0; i < 3; i++) await session.control.capabilities();
    } finally {
      await session.close();
    }
    // Three answered calls: the second went out on the first call's socket, was dropped and sent
    // again on a connection of its own; the third found the dead socket gone and opened a new one.
    expect(server.answered).toEqual(Array(3).fill('GET /__control/capabilities'));
    expect(server.dropped).toBe(1);
    // The lost try stays in the evidence, with what the network said.
    const evidence = recorded[0]!.take().evidence;
    expect(evidence.filter((e) => e.error?.code === 'HARNESS_NETWORK')).toHaveLength(
      server.dropped,
    );
    expect(evidence.filter((e) => e.response?.status === 200)).toHaveLength(3);
  });

  it('so is a token request', async () => {
    const server = await closingServer();
    const session = new Session(configFor(server.origin), { connections: 1 });
    try {
      await session.control.capabilities();
      const token = await session.tokenFor(key, undefined, undefined);
      expect(token).toMatch(/^odp_at_/);
    } finally {
      await session.close();
    }
    expect(server.dropped).toBe(1);
    expect(server.answered).toEqual([
      'GET /__control/capabilities',
      'POST /api/on-demand/v1/oauth/token',
    ]);
  });

  it("a check's own request is never sent twice: its loss is a harness error, never retried", async () => {
    const server = await closingServer();
    const session = new Session(configFor(server.origin), { connections: 1 });
    try {
      await session.control.capabilities();
      const lost = await session
        .send({ method: 'GET', path: '/account', auth: { kind: 'bearer', token: 't' } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(lost).toBeInstanceOf(HarnessError);
      expect((lost as HarnessError).code).toBe('HARNESS_NETWORK');
    } finally {
      await session.close();
    }
    expect(server.dropped).toBe(1);
    expect(server.answered).toEqual(['GET /__control/capabilities']);
  });
});
