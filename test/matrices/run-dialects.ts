import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { activeRules } from '../../rules/index.js';
import type { AppOptions } from '../../server/options.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { ROOT } from './area-checks.js';
import {
  type AreaRun,
  type PreparedRun,
  prepareRun,
  probeAsTheCli,
  readRun,
  stoppedRun,
} from './run-conformance.js';
import { MATRIX_SEED } from './run-matrix.js';
import { runSuitesOnTargets } from './run-targets.js';

/** The dialect profiles of test/dialects/, each a server quite unlike the reference. */
export const DIALECTS = ['acme', 'globex', 'initech', 'umbrella', 'wonka', 'hooli'] as const;
export type DialectName = (typeof DIALECTS)[number];

export const dialectFile = (name: string) => join(ROOT, 'test', 'dialects', `${name}.json`);

/**
 * What a dialect's server does that is domain, not dialect, so no profile
 * says it: globex charges a flat shipping of $7.95, legal (API document
 * section 4, rule 5: the limits apply to the total), so totals differ from
 * the sum of the lines and a check adding up prices is caught.
 */
export const SERVER_OPTIONS: Readonly<Record<string, Partial<AppOptions>>> = {
  globex: { shippingCents: 795 },
};

/** One run of the dialect matrix and what it found. */
export interface DialectRun {
  /** `reference`, or the dialect the server speaks. */
  server: string;
  /** Whether the suite was given the server's profile. */
  withProfile: boolean;
  run: AreaRun;
  /** How many rules ended with each verdict. */
  counts: Record<string, number>;
  /** MUST rules that failed. */
  mustFailed: string[];
  /** The dialect probe's lines (`dialect mismatch: FIELD: …`) when it stopped the run. */
  mismatches: string[];
}

const MUST = new Set<string>(
  activeRules.filter((rule) => rule.level === 'MUST').map((rule) => rule.id),
);

/**
 * The dialect matrix: the reference server in each
 * dialect, the whole suite run against it with its profile and without, and
 * the reference dialect as the yardstick; all in one vitest instance
 * (test/matrices/run-targets.ts). A run that cannot start (the suite's probe
 * refuses the target) ends with exit 2 and its reason, as the CLI would.
 */
export async function runDialectMatrix(
  dialects: readonly string[] = DIALECTS,
  concurrency = 3,
  /** Where each dialect's profile is (default: test/dialects/NAME.json). */
  fileOf: (name: string) => string = dialectFile,
  /** Seed of every generated input (default: the defect matrix's). */
  seed: number = MATRIX_SEED,
): Promise<DialectRun[]> {
  const jobs: { server: DialectRun['server']; withProfile: boolean }[] = [
    { server: 'reference', withProfile: false },
    ...dialects.flatMap((server) => [
      { server, withProfile: true },
      { server, withProfile: false },
    ]),
  ];
  const cwd = emptyDir('dialect-matrix-');
  const servers: RunningServer[] = [];
  const results: DialectRun[] = [];
  try {
    const prepared = new Map<string, { job: (typeof jobs)[number]; prepared: PreparedRun }>();
    for (const job of jobs) {
      const name = `${job.server}${job.withProfile ? ' with its profile' : ' without a profile'}`;
      const controlToken = randomBytes(24).toString('base64url');
      const file = job.server === 'reference' ? undefined : fileOf(job.server);
      const server = await startServer({
        controlToken,
        db: ':memory:',
        ...SERVER_OPTIONS[job.server],
        ...(file === undefined ? {} : { profile: JSON.parse(readFileSync(file, 'utf8')) }),
      });
      servers.push(server);
      const flags = job.withProfile && file !== undefined ? ['--profile', file] : [];
      try {
        const run = await prepareRun(
          name,
          { origin: server.origin, controlToken },
          'ALL',
          seed,
          cwd,
          flags,
        );
        // Before any check, as the CLI does: a target that does not speak the profile's dialect stops the run (exit 2).
        const lines = await probeAsTheCli(run);
        if (lines) {
          results.push(summary(job, stopped(lines.join('\n')), lines));
          continue;
        }
        prepared.set(name, { job, prepared: run });
      } catch (error) {
        // Refused before any check (exit 2), as the CLI would end.
        const problem = error instanceof Error ? error.message : String(error);
        results.push(summary(job, stopped(problem)));
      }
    }
    const runs = await runSuitesOnTargets({
      root: ROOT,
      targets: [...prepared.values()].map((p) => p.prepared.suiteTarget),
      maxWorkers: concurrency,
    });
    for (const [name, entry] of prepared) {
      const collected = runs.get(name);
      if (collected) results.push(summary(entry.job, readRun(entry.prepared, collected, 0)));
    }
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
    await rm(cwd, { recursive: true, force: true });
  }
  return results;
}

/** A run refused before any check (exit 2), and why. */
function stopped(problem: string): AreaRun {
  return stoppedRun('ALL', problem);
}

function summary(
  job: { server: DialectRun['server']; withProfile: boolean },
  run: AreaRun,
  mismatches: string[] = [],
): DialectRun {
  const counts: Record<string, number> = {};
  for (const verdict of Object.values(run.verdicts)) counts[verdict] = (counts[verdict] ?? 0) + 1;
  return {
    ...job,
    run,
    counts,
    mustFailed: run.failed.filter((id) => MUST.has(id)),
    mismatches,
  };
}
