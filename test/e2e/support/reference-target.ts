import { randomBytes } from 'node:crypto';
import { onTestFinished } from 'vitest';
import type { DefectName } from '../../../server/defects/catalogue.js';
import { startServer } from '../../../server/start.js';

/** The bundled reference as a target elsewhere: its origin, without a trailing slash, and its control token. */
export interface ReferenceTarget {
  origin: string;
  controlToken: string;
}

/**
 * Starts the bundled reference on a free port, in memory, with a control token of its own
 * and the `defects` given, closed when the calling test finishes.
 */
export async function startReferenceTarget(defects: DefectName[] = []): Promise<ReferenceTarget> {
  const controlToken = randomBytes(24).toString('base64url');
  const server = await startServer({ port: 0, controlToken, db: ':memory:', defects });
  onTestFinished(() => server.close());
  return { origin: server.origin.replace(/\/+$/, ''), controlToken };
}
