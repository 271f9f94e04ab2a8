import { parentPort, workerData } from 'node:worker_threads';
import type { StartOptions } from '../../server/start.js';

/**
 * The bundled reference server on a thread of its own (embedded-reference.ts):
 * it starts while the CLI loads vitest, and answers the checks on its own
 * core instead of between the CLI's other work. Tells its origin once
 * listening; closes when told to, then its thread ends.
 */
const port = parentPort;
if (!port) throw new Error('reference-thread.ts runs only as a worker thread');
const { startServer } = await import('../../server/start.js');
const server = await startServer(workerData as StartOptions);
port.once('message', () => {
  void server.close().finally(() => port.close());
});
port.postMessage({ origin: server.origin });
