import { buildApp } from './app.js';
import type { AppOptions } from './options.js';

export interface StartOptions extends AppOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  close(): Promise<void>;
}

/** Builds the app and listens; the engine calls this in-process when the user gives no target. */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 0, ...appOptions } = opts;
  const app = await buildApp(appOptions);
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  return { origin, close: () => app.close() };
}
