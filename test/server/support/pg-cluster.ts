import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../../scripts/pg-throwaway.sh', import.meta.url));

/** What scripts/pg-throwaway.sh does to a cluster to make its database go away (and come back). */
type ClusterVerb = 'stop-fast' | 'stop-immediate' | 'restart' | 'pause' | 'resume';

export interface Cluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  /** Runs one of the script's verbs on this cluster (as root: as the user `postgres`, like CI). */
  do(verb: ClusterVerb): Promise<void>;
  /** Stops the cluster and removes its directory. */
  remove(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of its own (scripts/pg-throwaway.sh), for
 * tests that stop, pause and restart their database: the shared test server
 * of TEST_DATABASE_URL must keep serving the other test files meanwhile.
 */
export async function throwawayCluster(): Promise<Cluster> {
  // In the system's temporary folder, not emptyDir(): as root the cluster runs as the user
  // `postgres`, who cannot enter the run's own folder (mode 0700).
  const dir = mkdtempSync(join(tmpdir(), 'reference-chaos-pg-'));
  let url: string;
  try {
    url = (await run(SCRIPT, ['start', dir])).stdout.trim();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async do(verb) {
      await run(SCRIPT, [verb, dir]);
    },
    async remove() {
      // Whatever state a failed test left it in: running again, then stopped.
      await run(SCRIPT, ['resume', dir]).catch(() => undefined);
      await run(SCRIPT, ['stop', dir]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
