import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { CollectedRun } from '../../lib/runner/collected.js';
import { activeRules } from '../../rules/index.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { ROOT } from './area-checks.js';
import { type DefectCase, defectCases } from './cases.js';
import {
  type AreaRun,
  type PreparedRun,
  prepareRun,
  probeAsTheCli,
  type RunScope,
  readRun,
  stoppedRun,
} from './run-conformance.js';
import { runSuitesOnTargets } from './run-targets.js';

/** The seed of every run: the same generated inputs each time, so verdicts can be compared. */
export const MATRIX_SEED = 20_240_601;

/**
 * Check files at a time (vitest workers), whatever run they belong to. The
 * servers answer from this process's main thread, so three workers keep two
 * cores busier than two do.
 */
export const DEFAULT_CONCURRENCY = 3;

interface DefectResult extends DefectCase {
  run: AreaRun;
  /** Exit 1 and the broken rule among the failures: the suite caught the defect by its rule. */
  caught: boolean;
}

interface BaselineResult {
  run: AreaRun;
  /** Exit 0, and every rule of the area passed or warned (none failed, errored or went unchecked). */
  clean: boolean;
}

export interface MatrixResult {
  seed: number;
  concurrency: number;
  baseline: BaselineResult[];
  defects: DefectResult[];
  wallMs: number;
}

export interface MatrixOptions {
  /** Only these defects (default: the whole catalogue). */
  defects?: readonly string[];
  /** Skip the runs against the correct server. */
  skipBaseline?: boolean;
  concurrency?: number;
  seed?: number;
  /** Told as each run ends (the command prints progress). */
  onRun?: (done: number, total: number, label: string, run: AreaRun) => void;
}

type Job = { kind: 'baseline' } | { kind: 'defect'; item: DefectCase };

/**
 * The defect matrix: each defect's server against the checks of its rule's
 * area, and the correct server against the whole suite (read back area by
 * area). Every run has its own server (in this process, port 0, in memory)
 * and its own control token, closed as soon as its checks end. All runs go
 * through one vitest instance (test/matrices/run-targets.ts): start-up is paid
 * once, not once per defect.
 */
export async function runMatrix(options: MatrixOptions = {}): Promise<MatrixResult> {
  const seed = options.seed ?? MATRIX_SEED;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const cases = defectCases(options.defects);
  const areas: string[] = options.skipBaseline
    ? []
    : [...new Set(activeRules.map((rule) => rule.area))];
  // Slow runs first, so that the end of the run is not one long run alone.
  const jobs: Job[] = [
    ...(areas.length > 0 ? [{ kind: 'baseline' } as const] : []),
    ...cases.map((item): Job => ({ kind: 'defect', item })),
  ].sort((a, b) => weight(b) - weight(a));
  const started = Date.now();
  const cwd = emptyDir('defect-matrix-');
  const runs = new Map<string, { job: Job; run: AreaRun }>();
  let done = 0;
  try {
    for (const batch of batches(jobs, TARGETS_PER_VITEST)) {
      const servers: RunningServer[] = [];
      try {
        const prepared = new Map<
          string,
          { job: Job; prepared: PreparedRun; server: RunningServer }
        >();
        for (const job of batch) {
          const name = job.kind === 'baseline' ? BASELINE : job.item.defect;
          const controlToken = randomBytes(24).toString('base64url');
          const server = await startServer({
            controlToken,
            db: ':memory:',
            defects: job.kind === 'baseline' ? [] : [job.item.defect],
          });
          servers.push(server);
          const scope: RunScope = job.kind === 'baseline' ? 'ALL' : job.item.area;
          const target = { origin: server.origin, controlToken };
          const run = await prepareRun(name, target, scope, seed, cwd);
          // The dialect probe first, as the CLI runs it: a defect it mistakes for a dialect stops the run.
          const stopped = await probeAsTheCli(run);
          if (stopped) {
            await server.close();
            const refused = stoppedRun(scope, stopped.join('\n'));
            runs.set(name, { job, run: refused });
            done += 1;
            options.onRun?.(done, jobs.length, name, refused);
            continue;
          }
          prepared.set(name, { job, server, prepared: run });
        }
        const checkMs = (collected: CollectedRun) =>
          collected.tests.reduce((sum, test) => sum + (test.durationMs ?? 0), 0);
        if (prepared.size === 0) continue;
        const final = await runSuitesOnTargets({
          root: ROOT,
          targets: [...prepared.values()].map((p) => p.prepared.suiteTarget),
          maxWorkers: concurrency,
          onTargetEnd: async (name, collected) => {
            const entry = prepared.get(name);
            if (!entry) return;
            await entry.server.close();
            done += 1;
            options.onRun?.(
              done,
              jobs.length,
              entry.job.kind === 'baseline' ? 'correct server, every area' : name,
              readRun(entry.prepared, collected, checkMs(collected)),
            );
          },
        });
        // Read from the final runs: an error vitest could not attach to a file belongs to every run.
        for (const [name, entry] of prepared) {
          const collected = final.get(name);
          if (collected)
            runs.set(name, {
              job: entry.job,
              run: readRun(entry.prepared, collected, checkMs(collected)),
            });
        }
      } finally {
        await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
      }
    }
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
  const baseline: BaselineResult[] = [];
  const defects: DefectResult[] = [];
  for (const { job, run } of runs.values()) {
    if (job.kind === 'baseline') {
      for (const area of areas) {
        const inArea = byArea(run, area);
        baseline.push({ run: inArea, clean: isClean(inArea) });
      }
    } else
      defects.push({
        ...job.item,
        run,
        caught: isCaught(job.item, run),
      });
  }
  const order = new Map(cases.map((c, index) => [c.defect, index]));
  defects.sort((a, b) => (order.get(a.defect) ?? 0) - (order.get(b.defect) ?? 0));
  baseline.sort((a, b) => areas.indexOf(a.run.area) - areas.indexOf(b.run.area));
  return { seed, concurrency, baseline, defects, wallMs: Date.now() - started };
}

/**
 * Runs (servers and vitest projects) held at once. One vitest instance for
 * the whole matrix would hold ~140 servers and projects (~900 MB); a few
 * batches cost a second of start-up each and keep memory near 300 MB.
 */
const TARGETS_PER_VITEST = 36;

/** `jobs` (slowest first) dealt out into batches of at most `size`, each with a share of the slow ones. */
function batches<T>(jobs: readonly T[], size: number): T[][] {
  const count = Math.max(1, Math.ceil(jobs.length / size));
  return Array.from({ length: count }, (_, batch) =>
    jobs.filter((_job, index) => index % count === batch),
  );
}

/** The project name of the correct server's run (no defect is called so). */
const BASELINE = 'correct server';

/**
 * A broken MUST rule fails the run (exit 1, the rule among the failures); a
 * broken SHOULD or DIALECT rule ends `warning`, which never fails a run.
 */
function isCaught(item: DefectCase, run: AreaRun): boolean {
  return item.caughtAs === 'failed'
    ? run.exitCode === 1 && run.failed.includes(item.rule)
    : run.verdicts[item.rule] === 'warning';
}

/** The part of a whole-suite run that is one area's: its rules' verdicts, with the run's exit code. */
function byArea(run: AreaRun, area: string): AreaRun {
  const ids = new Set<string>(
    activeRules.filter((rule) => rule.area === area).map((rule) => rule.id),
  );
  const verdicts = Object.fromEntries(Object.entries(run.verdicts).filter(([id]) => ids.has(id)));
  return {
    ...run,
    area,
    verdicts,
    failed: run.failed.filter((id) => ids.has(id)),
  };
}

function isClean(run: AreaRun): boolean {
  const verdicts = Object.values(run.verdicts);
  return (
    run.exitCode === 0 &&
    verdicts.length > 0 &&
    verdicts.every((verdict) => verdict === 'passed' || verdict === 'warning')
  );
}

/** Areas whose checks take longest (bursts of hundreds of requests, races in rounds, many orders). */
const SLOW_AREAS = new Set(['ERR', 'RATE', 'RACE', 'MODEL', 'ORDER', 'IDEM', 'MODE', 'KEY']);

function weight(job: Job): number {
  if (job.kind === 'baseline') return 2;
  return SLOW_AREAS.has(job.item.area) ? 1 : 0;
}
