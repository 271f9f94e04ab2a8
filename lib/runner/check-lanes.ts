import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { globSync } from 'tinyglobby';
import { z } from 'zod';
import { COMPILED } from '../config/package-root.js';
import { MAX_CONCURRENCY } from '../config/settings.js';
import { type LaneFile, planLanes } from '../plan/lanes.js';
import { burstFolders } from './check-groups.js';

/**
 * Lane modules (check-group.ts `loadCheckLane`): `suites/lanes/lane-01.lane.js` to
 * `lane-32.lane.js`, written when the suite is compiled (scripts/compile.mjs), one per worker
 * of a run of several files at a time, up to the most `--concurrency` allows. Each loads the
 * check files the run's plan gives its lane (RunConfig.lanes).
 */
export const LANE_MODULES = MAX_CONCURRENCY;

/** Where the weights of the bundled check files are, below the suite's root (scripts/lane-weights.ts writes it). */
export const LANE_WEIGHTS_FILE = 'suites/lane-weights.json';

const LaneWeightsSchema = z
  .object({
    about: z.string(),
    roundTripMs: z.number().int().positive(),
    /** By path below `suites/` without its extension (`race/rate-limits.check`): seconds alone. */
    seconds: z.record(z.string(), z.number().nonnegative()),
    /** By the same paths: the requests the reference answered for the file's checks. */
    requests: z.record(z.string(), z.number().int().nonnegative()),
  })
  .strict();
export type LaneWeights = z.infer<typeof LaneWeightsSchema>;

/** Lane `lane`'s module (from 1), relative to the suite's root. */
export function laneModule(lane: number): string {
  return `suites/lanes/lane-${String(lane).padStart(2, '0')}.lane.js`;
}

/**
 * The lanes of a run of the bundled check files (`include`, vitest's glob relative to `root`)
 * `lanes` files at a time: vitest's include (a lane module per worker) and each lane's check
 * files (RunConfig.lanes, paths below `suites/`), when this tree has lane modules (a compiled
 * one) for that many. Undefined otherwise: the check files run themselves.
 */
export function checkLanes(
  root: string,
  include: string,
  lanes: number,
): { include: string[]; plan: string[][] } | undefined {
  if (!COMPILED || lanes < 2 || lanes > LANE_MODULES) return undefined;
  const modules = Array.from({ length: lanes }, (_, i) => laneModule(i + 1));
  if (!modules.every((module) => existsSync(join(root, module)))) return undefined;
  // tinyglobby answers `/`-separated paths relative to `cwd`: below `suites/`, as a lane names them.
  const files = globSync(include, { cwd: root })
    .map((file) => posix.relative('suites', file))
    .sort();
  if (files.length === 0) return undefined;
  return { include: modules, plan: planLanes(weighed(files, readLaneWeights(root)), lanes) };
}

/**
 * The weights the suite ships, or none: a missing or unreadable file costs the run its
 * balance, never its checks (each file then weighs the same).
 */
export function readLaneWeights(root: string): LaneWeights | undefined {
  try {
    const parsed = LaneWeightsSchema.safeParse(
      JSON.parse(readFileSync(join(root, LANE_WEIGHTS_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each file with its weights and whether it bursts. A file the weights do not name (added
 * since they were measured) weighs the median of those they do.
 */
export function weighed(files: readonly string[], weights: LaneWeights | undefined): LaneFile[] {
  const bursting = burstFolders();
  const seconds = orMedian(weights?.seconds);
  const requests = orMedian(weights?.requests);
  return files.map((file) => ({
    file,
    seconds: seconds(withoutExtension(file)),
    requests: requests(withoutExtension(file)),
    burst: bursting.has(file.split('/')[0] ?? ''),
  }));
}

/** A file's weight by name, or the median weight of those named (1 when none is). */
function orMedian(weights: Record<string, number> | undefined): (name: string) => number {
  const known = Object.values(weights ?? {}).sort((a, b) => a - b);
  const median = known.length ? (known[Math.floor(known.length / 2)] as number) : 1;
  return (name) => weights?.[name] ?? median;
}

/** `race/rate-limits.check.js` → `race/rate-limits.check` (the sources' `.ts` the same). */
export function withoutExtension(file: string): string {
  return file.replace(/\.(js|ts)$/, '');
}
