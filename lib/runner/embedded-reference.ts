import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { COMPILED } from '../config/package-root.js';

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
 * Compiled (the package, a checkout's compiled copy), it runs on a thread of
 * its own (reference-thread.ts): it starts beside the CLI's own start-up and
 * answers on the second core. Through the TypeScript loader it runs on the
 * CLI's thread (a worker thread would not inherit tsx's hooks).
 */
export async function startEmbeddedReference(): Promise<EmbeddedReference> {
  const controlToken = randomBytes(24).toString('base64url');
  const options = { host: '127.0.0.1', port: 0, controlToken, db: ':memory:' };
  const server = COMPILED
    ? await startOnThread(options)
    : await (await import('../../server/start.js')).startServer(options);
  const origin = server.origin.replace(/\/+$/, '');
  return { origin, controlUrl: `${origin}/__control`, controlToken, close: () => server.close() };
}

interface Started {
  origin: string;
  close(): Promise<void>;
}

function startOnThread(options: object): Promise<Started> {
  const worker = new Worker(new URL('./reference-thread.js', import.meta.url), {
    workerData: options,
  });
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const close = async () => {
    worker.postMessage('close');
    await ended;
  };
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { origin: string }) => {
      worker.off('error', reject);
      resolve({ origin: message.origin, close });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the reference's thread ended (${code})`)));
  });
}
