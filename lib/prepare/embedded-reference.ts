import { randomBytes } from 'node:crypto';

export interface EmbeddedReference {
  origin: string;
  controlUrl: string;
  controlToken: string;
  close(): Promise<void>;
}

/**
 * With no target, the bundled reference server is the target: started
 * in-process on a free loopback port, in-memory storage, with its control
 * API behind a token made for this run only (it still must never reach a
 * report: the safety net knows it). `server/start.ts` is the one thing the
 * engine takes from server/, loaded only when needed.
 *
 * It runs on the CLI's own thread, which mostly waits while the checks run
 * in vitest's worker. A thread of its own (as it had before a run's peak was held to 300 MB)
 * cost a third V8 heap, ~35-50 MB of a run's peak, and made the run no
 * faster: the CLI loads vitest while the reference starts either way
 * (run-command.ts), and its answers took no longer on a shared thread.
 */
export async function startEmbeddedReference(): Promise<EmbeddedReference> {
  const controlToken = randomBytes(24).toString('base64url');
  const { startServer } = await import('../../server/start.js');
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlToken,
    db: ':memory:',
  });
  const origin = server.origin.replace(/\/+$/, '');
  return { origin, controlUrl: `${origin}/__control`, controlToken, close: () => server.close() };
}
