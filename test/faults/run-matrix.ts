import { randomBytes } from 'node:crypto';
import { activeRules } from '../../rules/index.js';
import type { DefectName } from '../../server/defects/catalogue.js';
import { startServer } from '../../server/start.js';
import { type DefectCase, defectCases } from './cases.js';
import { mapBounded } from './pool.js';
import { type AreaRun, type RunScope, runArea } from './run-conformance.js';

/** The seed of every run: the same generated inputs each time, so verdicts can be compared. */
export const MATRIX_SEED = 20_240_601;

/**
 * Conformance processes at a time. Each spends part of its life starting up
 * and waiting on its server, so three keep two cores busier than two do.
 */
export const DEFAULT_CONCURRENCY = 3;

export interface DefectResult extends DefectCase {
  run: AreaRun;
  /** Exit 1 and the broken rule among the failures: the suite caught the defect by its rule. */
  caught: boolean;
}

export interface BaselineResult {
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
 * The fault matrix: each defect's server against the checks of its rule's
 * area, and the correct server against the whole suite in one run (one
 * process instead of one per area: the matrix is CPU-bound, and every run
 * pays its start-up), read back area by area. Each run has its own
 * server (in this process, port 0, in memory) and its own control token,
 * closed as soon as its run ends.
 */
export async function runMatrix(options: MatrixOptions = {}): Promise<MatrixResult> {
  const seed = options.seed ?? MATRIX_SEED;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const cases = defectCases(options.defects);
  const areas: string[] = options.skipBaseline
    ? []
    : [...new Set(activeRules.map((rule) => rule.area))];
  // Slow areas first, so that the last runs of the pool are short ones.
  const jobs: Job[] = [
    ...(areas.length > 0 ? [{ kind: 'baseline' } as const] : []),
    ...cases.map((item): Job => ({ kind: 'defect', item })),
  ].sort((a, b) => weight(b) - weight(a));
  const started = Date.now();
  let done = 0;
  const runs = await mapBounded(jobs, concurrency, async (job) => {
    const run =
      job.kind === 'baseline'
        ? await runAgainst([], 'ALL', seed)
        : await runAgainst([job.item.defect], job.item.area, seed);
    done += 1;
    options.onRun?.(
      done,
      jobs.length,
      job.kind === 'baseline' ? 'correct server, every area' : job.item.defect,
      run,
    );
    return { job, run };
  });
  const baseline: BaselineResult[] = [];
  const defects: DefectResult[] = [];
  for (const { job, run } of runs) {
    if (job.kind === 'baseline') {
      for (const area of areas) {
        const inArea = byArea(run, area);
        baseline.push({ run: inArea, clean: isClean(inArea) });
      }
    } else
      defects.push({
        ...job.item,
        run,
        caught: run.exitCode === 1 && run.failed.includes(job.item.rule),
      });
  }
  const order = new Map(cases.map((c, index) => [c.defect, index]));
  defects.sort((a, b) => (order.get(a.defect) ?? 0) - (order.get(b.defect) ?? 0));
  baseline.sort((a, b) => areas.indexOf(a.run.area) - areas.indexOf(b.run.area));
  return { seed, concurrency, baseline, defects, wallMs: Date.now() - started };
}

async function runAgainst(defects: DefectName[], area: RunScope, seed: number): Promise<AreaRun> {
  const controlToken = randomBytes(24).toString('base64url');
  const server = await startServer({ controlToken, db: ':memory:', defects });
  try {
    return await runArea({ origin: server.origin, controlToken }, area, seed);
  } finally {
    await server.close();
  }
}

/** The part of a whole-suite run that is one area's: its rules' verdicts, with the run's exit code. */
function byArea(run: AreaRun, area: string): AreaRun {
  const ids = new Set(activeRules.filter((rule) => rule.area === area).map((rule) => rule.id));
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

/** Areas whose checks take longest (bursts of hundreds of requests, many orders). */
const SLOW_AREAS = new Set(['ERR', 'RATE', 'MODEL', 'ORDER', 'IDEM', 'MODE', 'KEY']);

/** Defects whose server is slow on purpose (see server/defects/in-flight.ts): started first. */
const SLOW_DEFECTS = new Set<DefectName>(['idem-race-unserialized']);

function weight(job: Job): number {
  if (job.kind === 'baseline') return 3;
  if (SLOW_DEFECTS.has(job.item.defect)) return 2;
  return SLOW_AREAS.has(job.item.area) ? 1 : 0;
}
