/**
 * `npm run bench:races`: whether the race checks catch a server that loses
 * the race on a busy machine, and pass one that does not. Starts two
 * CPU-bound processes of its own beside the suite (as many as the machine's
 * other work may be: the development machine has two cores), then, in each
 * of BENCH_RACE_RUNS runs (default 20), with a new seed, runs (BENCH_RACE_ONLY:
 * some of the rules only):
 *   - every race rule (IDEM-10 and the RACE area) against the correct
 *     reference: each must pass;
 *   - each race rule's own defect (a reference that reads before its lock,
 *     server/defects/race.ts) against that rule's checks: the rule must fail;
 * all through one vitest instance, as the defect matrix runs (servers in this
 * process, the checks in vitest's workers). Prints, per rule, how many runs
 * caught its defect and how many the correct reference passed, with the
 * load average, and exits 1 unless every count is every run. A benchmark,
 * never a test: nothing here may fail a test because the machine is busy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { activeRules, type RuleId } from '../rules/index.js';
import type { DefectName } from '../server/defects/catalogue.js';
import { type RunningServer, startServer } from '../server/start.js';
import { ROOT } from '../test/matrices/area-checks.js';
import { BROKEN_RULE } from '../test/matrices/expectations.js';
import { type PreparedRun, prepareRun, readRun } from '../test/matrices/run-conformance.js';
import { DEFAULT_CONCURRENCY } from '../test/matrices/run-matrix.js';
import { runSuitesOnTargets } from '../test/matrices/run-targets.js';

const RUNS = Number(process.env.BENCH_RACE_RUNS ?? 20);
/** Some race rules only (`BENCH_RACE_ONLY=IDEM-10,RACE-02`); default every one. */
const ONLY = process.env.BENCH_RACE_ONLY?.split(',').map((id) => id.trim());
const HOGS = 2;
const SEED = 20_260_101;

/** The race rules: IDEM-10 and the RACE area, each with the defect that loses its race. */
const RACE_RULES = activeRules
  .filter((r) => r.id === 'IDEM-10' || r.area === 'RACE')
  .map((r) => r.id)
  .filter((id) => ONLY === undefined || ONLY.includes(id));
const DEFECT_OF = new Map<string, DefectName>(
  (Object.entries(BROKEN_RULE) as [DefectName, RuleId][])
    .filter(([defect, rule]) => RACE_RULES.includes(rule) && isRaceDefect(defect))
    .map(([defect, rule]) => [rule, defect]),
);

/** The defects that lose a race: the RACE area's, and IDEM-10's. */
function isRaceDefect(defect: string): boolean {
  return defect.startsWith('race-') || defect === 'idem-race-unserialized';
}

/** A process that keeps one core busy until it is killed. */
function hog(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

interface Tally {
  caught: number;
  passed: number;
  /** What the runs that missed said. */
  misses: string[];
}

const tally = new Map<string, Tally>(
  RACE_RULES.map((rule) => [rule, { caught: 0, passed: 0, misses: [] }]),
);
const loads: number[] = [];
const hogs = Array.from({ length: HOGS }, hog);
const stopHogs = () => {
  for (const child of hogs) if (child.pid !== undefined) child.kill('SIGKILL');
};
process.on('exit', stopHogs);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const started = performance.now();
const cwd = await mkdtemp(join(tmpdir(), 'bench-races-'));
try {
  process.stderr.write(
    `bench: ${RACE_RULES.length} race rules, ${RUNS} runs, ${HOGS} CPU-bound processes beside the suite (${cpus().length} cores)\n`,
  );
  for (let run = 1; run <= RUNS; run++) {
    const runStarted = performance.now();
    const servers: RunningServer[] = [];
    try {
      const prepared = new Map<string, { rule?: string; prepared: PreparedRun }>();
      const target = async (name: string, defects: DefectName[], scope: string) => {
        const controlToken = randomBytes(24).toString('base64url');
        const server = await startServer({ controlToken, db: ':memory:', defects });
        servers.push(server);
        return prepareRun(name, { origin: server.origin, controlToken }, scope, SEED + run, cwd);
      };
      prepared.set('correct', { prepared: await target('correct', [], RACE_RULES.join(',')) });
      for (const rule of RACE_RULES) {
        const defect = DEFECT_OF.get(rule);
        if (defect) prepared.set(defect, { rule, prepared: await target(defect, [defect], rule) });
      }
      const final = await runSuitesOnTargets({
        root: ROOT,
        targets: [...prepared.values()].map((p) => p.prepared.suiteTarget),
        maxWorkers: DEFAULT_CONCURRENCY,
      });
      loads.push(loadavg()[0] ?? 0);
      let caught = 0;
      let passed = 0;
      for (const [name, entry] of prepared) {
        const collected = final.get(name);
        if (!collected) throw new Error(`no results for ${name}`);
        const result = readRun(entry.prepared, collected, 0);
        /** What the check of `rule` said: its reason and notes, for a miss. */
        const said = (rule: string) => {
          const outcome = collected.tests.find((t) => t.name.startsWith(`${rule} `))?.outcome;
          return [outcome?.reason, ...(outcome?.notes ?? [])].filter(Boolean).join(' | ');
        };
        if (entry.rule === undefined) {
          for (const rule of RACE_RULES) {
            const count = tally.get(rule) as Tally;
            if (result.verdicts[rule] === 'passed') {
              count.passed += 1;
              passed += 1;
            } else {
              count.misses.push(
                `run ${run}: correct server ${result.verdicts[rule]}: ${said(rule)}`,
              );
              process.stderr.write(`    ${rule}: ${count.misses.at(-1)}\n`);
            }
          }
        } else {
          const count = tally.get(entry.rule) as Tally;
          if (result.exitCode === 1 && result.failed.includes(entry.rule)) {
            count.caught += 1;
            caught += 1;
          } else {
            count.misses.push(
              `run ${run}: ${name} ${result.verdicts[entry.rule]}: ${said(entry.rule)}`,
            );
            process.stderr.write(`    ${entry.rule}: ${count.misses.at(-1)}\n`);
          }
        }
      }
      process.stderr.write(
        `  run ${run}/${RUNS}: defects caught ${caught}/${DEFECT_OF.size}, correct passed ${passed}/${RACE_RULES.length}, load ${loads.at(-1)?.toFixed(1)}, ${((performance.now() - runStarted) / 1000).toFixed(0)} s\n`,
      );
    } finally {
      await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
    }
  }
} finally {
  stopHogs();
  await rm(cwd, { recursive: true, force: true });
}

const rows = RACE_RULES.map((rule) => {
  const count = tally.get(rule) as Tally;
  return `| ${rule} | \`${DEFECT_OF.get(rule) ?? '—'}\` | ${count.caught}/${RUNS} | ${count.passed}/${RUNS} |`;
});
const misses = [...tally.values()].flatMap((count) => count.misses);
const mean = loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length);
process.stdout.write(
  [
    '',
    `Race checks, ${RUNS} runs with ${HOGS} CPU-bound processes beside the suite (${cpus().length} cores; 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}, mean ${mean.toFixed(1)}); wall ${((performance.now() - started) / 1000).toFixed(0)} s`,
    '',
    '| rule | its defect | defect caught | correct reference passed |',
    '|---|---|---|---|',
    ...rows,
    '',
    ...(misses.length > 0 ? ['Misses:', ...misses.map((m) => `  ${m}`), ''] : []),
  ].join('\n'),
);
const complete = [...tally.entries()].every(
  ([rule, count]) => count.passed === RUNS && (!DEFECT_OF.has(rule) || count.caught === RUNS),
);
process.exitCode = complete ? 0 : 1;
