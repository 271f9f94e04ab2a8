import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { CollectedRun } from '../../lib/runner/collected.js';
import type { DefectName } from '../../server/defects/catalogue.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { ROOT } from './area-checks.js';
import { type AreaRun, type PreparedRun, prepareRun, readRun } from './run-conformance.js';
import { DEFAULT_CONCURRENCY } from './run-matrix.js';
import { runSuitesOnTargets } from './run-targets.js';

/** One seed's run of some rules: the verdicts as the CLI reports them, and what each check recorded. */
export interface RulesRun {
  seed: number;
  run: AreaRun;
  collected: CollectedRun;
}

/**
 * Some rules' checks, once per seed, each seed against a server of its own
 * (in this process, port 0, in memory, with the given defects switched on),
 * all through one vitest instance as the defect matrix runs them. For tests
 * that need the verdicts of many seeds, or the exchanges a check sent.
 */
export async function runRules(options: {
  rules: readonly string[];
  seeds: readonly number[];
  defects?: readonly DefectName[];
  concurrency?: number;
}): Promise<RulesRun[]> {
  const cwd = emptyDir('rules-run-');
  const servers: RunningServer[] = [];
  try {
    const prepared = new Map<string, { seed: number; prepared: PreparedRun }>();
    for (const seed of options.seeds) {
      const controlToken = randomBytes(24).toString('base64url');
      const server = await startServer({
        controlToken,
        db: ':memory:',
        defects: [...(options.defects ?? [])],
      });
      servers.push(server);
      const name = `seed ${seed}`;
      const target = { origin: server.origin, controlToken };
      prepared.set(name, {
        seed,
        prepared: await prepareRun(name, target, options.rules.join(','), seed, cwd),
      });
    }
    const final = await runSuitesOnTargets({
      root: ROOT,
      targets: [...prepared.values()].map((p) => p.prepared.suiteTarget),
      maxWorkers: options.concurrency ?? DEFAULT_CONCURRENCY,
    });
    return [...prepared].map(([name, { seed, prepared: run }]) => {
      const collected = final.get(name);
      if (!collected) throw new Error(`no results for ${name}`);
      return { seed, run: readRun(run, collected, 0), collected };
    });
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
    await rm(cwd, { recursive: true, force: true });
  }
}
