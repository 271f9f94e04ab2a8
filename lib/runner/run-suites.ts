import { rmSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { BaseSequencer, createVitest, type Reporter, type TestSpecification } from 'vitest/node';
import {
  newRunChannelName,
  RUN_CHANNEL_KEY,
  serveRunConfigs,
} from '../client/run-config-channel.js';
import { testNamePattern } from '../config/only.js';
import { shapeKey } from '../plan/ahead-forecast.js';
import { workerConnections } from '../plan/concurrency.js';
import { readDemand } from '../plan/partner-demand.js';
import { planFileOrder } from '../plan/partner-plan.js';
import { pruneResultsCache } from '../plan/results-cache.js';
import { VITE_CACHE_DIR } from '../plan/run-cache.js';
import type { RunConfig } from '../target/run-config.js';
import { allureReporter } from './allure.js';
import { checkGroupsInclude } from './check-groups.js';
import { checkLanes } from './check-lanes.js';
import { CHECK_RUN_OPTIONS, FRESH_MODULES, RUN_CONFIG_GATE } from './check-run-options.js';
import type { CollectedRun } from './collected.js';
import { serveTheChecks, serviceChannels } from './main-thread-services.js';
import { filesForOnly } from './only-files.js';
import { OutcomeCollector } from './outcome-collector.js';

export interface SuiteRunOptions {
  /** The suite's root: where `suites/` lives. */
  root: string;
  /** Glob of check files, relative to root (or absolute). */
  include: string;
  /**
   * The run's configuration, or the promise of it: the workers start at once
   * and their checks wait for it (run-config-gate.ts), so the target can be
   * prepared and probed meanwhile. A rejection calls the run off: runSuites
   * rejects with that reason, once vitest has stopped.
   */
  runConfig: RunConfig | Promise<RunConfig>;
  only: readonly string[];
  /** Where allure-vitest writes; undefined: no Allure results. */
  allureResultsDir?: string;
  /** Extra reporters, e.g. the progress line. */
  reporters?: Reporter[];
  /** Per-check timeout (ms); generated properties need room. */
  testTimeoutMs?: number;
  /**
   * Check files run side by side (`--concurrency`, default from
   * lib/plan/concurrency.ts). Threads waiting on the network cost no CPU, so this may
   * exceed the machine's cores.
   */
  maxWorkers?: number;
  /**
   * Partner mode (no control API): every file uses the one partner key, so
   * the files run one after another in one worker and share module state
   * (lib/check/run-shared.ts: one request pacer and token cache for the key,
   * whose rate limits they all share). Otherwise each file gets fresh
   * module state.
   */
  shareModules?: boolean;
  /**
   * Run the bundled check files several to a vitest file when this tree has the modules for it
   * (a compiled one) and no `--only` picks files. One file at a time (the bundled reference), a
   * folder's (check-group.ts): vitest's cost of each file (its messages with this thread, its
   * modules: ~18 ms of the worker's waiting) adds up. Several at a time (a target elsewhere), a
   * lane of files per worker, side by side (check-lanes.ts): a worker waiting on one file's
   * round trips goes on with another's checks.
   */
  grouped?: boolean;
  /** Aborting cancels the run: unfinished checks end as `error` (interrupted). */
  signal?: AbortSignal;
}

/**
 * Runs the check files with vitest's programmatic API. The RunConfig
 * reaches the workers over the run's channel (run-config-channel.ts), whose
 * name they `inject`; the results come back through our reporter.
 * vitest's own console output is swallowed: the progress line and the
 * reports speak for the run.
 */
export async function runSuites(options: SuiteRunOptions): Promise<CollectedRun> {
  const collector = new OutcomeCollector(options.root);
  const reporters: Reporter[] = [collector, ...(options.reporters ?? [])];
  const allureDir = options.allureResultsDir;
  const allure = allureDir ? allureReporter(allureDir, options.only, options.root) : undefined;
  if (allure) reporters.push(allure.reporter);
  const filesAtATime = options.shareModules ? 1 : (options.maxWorkers ?? 2);
  const bundled = options.grouped && options.only.length === 0;
  // One file at a time, a folder per vitest file (check-groups.ts); several, a lane of files side
  // by side per worker (check-lanes.ts).
  const groups = bundled && filesAtATime === 1 ? checkGroupsInclude(options.root) : undefined;
  const lanes =
    bundled && filesAtATime > 1
      ? checkLanes(options.root, options.include, filesAtATime)
      : undefined;
  const runChannel = newRunChannelName();
  const services = serviceChannels(runChannel);
  let calledOff: { reason: unknown } | undefined;
  let cancel = () => {};
  const configs = Promise.resolve(options.runConfig).then(
    (runConfig) => {
      // Allure shows every result file in the folder: a reused --report-dir keeps no earlier
      // run's. Only once the checks go ahead: a run called off before them loses nothing.
      if (allureDir) rmSync(allureDir, { recursive: true, force: true });
      return {
        one: {
          ...runConfig,
          ...(lanes ? { lanes: lanes.plan } : {}),
          revocations: services.revocations,
          ...(aheadFor(runConfig, filesAtATime) ? { readyAccounts: services.readyAccounts } : {}),
        },
      };
    },
    (reason: unknown) => {
      calledOff = { reason };
      cancel();
      throw reason;
    },
  );
  const pattern = testNamePattern(options.only);
  // --only: only the files that hold a selected rule's check are started.
  const files = filesForOnly(options.root, options.include, options.only);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const sigintBefore = new Set(process.listeners('SIGINT'));
  const channel = serveRunConfigs(configs, runChannel);
  const served = serveTheChecks(services, configs, (config) =>
    shapeKey({
      include: options.include,
      only: options.only,
      capabilities: config.capabilities,
      concurrency: config.concurrency ?? 1,
      numRuns: config.numRuns,
    }),
  );
  reporters.push(onLastFileStarted(() => served.lastFileStarted()));
  // vitest reads its whole results cache into this thread: only files that still exist.
  pruneResultsCache(options.root);
  checksYoungGeneration();
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: options.root,
      dir: options.root,
      include: files?.length ? files : (lanes?.include ?? groups ?? [options.include]),
      watch: false,
      reporters,
      provide: {
        [RUN_CHANNEL_KEY]: { name: channel.name, early: options.runConfig instanceof Promise },
      },
      ...CHECK_RUN_OPTIONS,
      // A lane's files go side by side, as many checks at once as its worker has sockets.
      ...(lanes ? { maxConcurrency: workerConnections(filesAtATime) } : {}),
      // Each file has its own control account, so files run side by side safely.
      setupFiles: options.shareModules ? [RUN_CONFIG_GATE] : [RUN_CONFIG_GATE, FRESH_MODULES],
      maxWorkers: filesAtATime,
      fileParallelism: !options.shareModules,
      // Partner mode: the files' order is planned against the key's rate limits (lib/plan/partner-plan.ts).
      ...(options.shareModules ? { sequence: { sequencer: partnerSequencer(options.root) } } : {}),
      testTimeout: options.testTimeoutMs ?? 60_000,
      ...(pattern ? { testNamePattern: pattern } : {}),
    },
    {
      logLevel: 'silent',
      cacheDir: VITE_CACHE_DIR,
    },
    { stdout: sink, stderr: sink },
  ).catch(async (error: unknown) => {
    channel.close();
    await served.close(false);
    throw error;
  });
  // Node's compile cache (enabled by bin/conformance.js) keeps the code cache of every module it
  // loaded, read from disk or made as the module loaded, in memory until the process exits, to
  // write then what is new. This thread's modules (the CLI's, the reference's, vitest's and
  // vite's) are loaded once vitest is made: written now, and let go. ~8 MB less at a run's peak,
  // as without the cache, keeping its faster start (eight alternating pairs of full runs: 203
  // against 213.5 MB). What loads later is written at exit, as before; without the cache enabled
  // this does nothing.
  flushCompileCache();
  // vitest's logger exits the process on Ctrl-C; the CLI owns Ctrl-C (cancel the run, still write the reports).
  for (const listener of process.listeners('SIGINT')) {
    if (!sigintBefore.has(listener)) process.off('SIGINT', listener);
  }
  cancel = () => void vitest.cancelCurrentRun('keyboard-input');
  options.signal?.addEventListener('abort', cancel, { once: true });
  let ranToEnd = false;
  try {
    if (!options.signal?.aborted && !calledOff) {
      await vitest.start();
      // Not stopped half-way (Ctrl-C, a target that stopped answering): its asks are a forecast.
      ranToEnd = !options.signal?.aborted;
    }
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    channel.close();
    await served.close(ranToEnd);
    await vitest.close();
  }
  if (calledOff) throw calledOff.reason;
  const collected = collector.result();
  const unwritten = allure?.failure();
  return unwritten ? { ...collected, unhandled: [...collected.unhandled, unwritten] } : collected;
}

/**
 * The checks' worker gets a young generation of 4 MB a half (as this thread does when
 * bin/conformance.js started the CLI again with it on the command line; 1 MB otherwise): V8 sizes a heap's young generation from its flags when the heap is
 * made, so the flag set now holds for the workers vitest starts from here on. The worker
 * allocates for every request of a run (answers, evidence, the replay book), and with 1 MB it
 * scavenged ~920 times in a full run, each copying what was still in flight; with 4 MB ~205
 * times. Measured, four alternating pairs of full runs at load 11-14 (old generations grown
 * by 30% of what survives, as bin/conformance.js then set it): wall 17.3-22.8 s against
 * 23.3-27.2 s, peak 240-243 MB against 244-251 MB. A size given on Node's command line or in
 * NODE_OPTIONS wins.
 */
function checksYoungGeneration(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => /^--(min|max)-semi-space-size/.test(arg))) return;
  setFlagsFromString('--min-semi-space-size=4');
}

/** A reporter that calls `then` once every check file of the run has started. */
function onLastFileStarted(then: () => void): Reporter {
  let files = 0;
  let started = 0;
  return {
    onTestRunStart: (specifications) => {
      files = specifications.length;
    },
    onTestModuleStart: () => {
      started += 1;
      if (started === files) then();
    },
  };
}

/**
 * Accounts made ahead (lib/control/ready-accounts.ts) pay only when files run
 * side by side against a target that makes accounts and keys: a target far
 * away. Against the bundled reference, one file at a time, they would only
 * cost requests (measured with its checks side by side: 8.4-9.7 s against 8.1-8.9 s without).
 */
function aheadFor(config: RunConfig, filesAtATime: number): boolean {
  return (
    filesAtATime > 1 &&
    config.controlUrl !== undefined &&
    config.capabilities.includes('accounts') &&
    config.capabilities.includes('keys')
  );
}

/**
 * vitest's order, then re-planned so that the partner key's three windows are
 * used together. Counts are kept by path relative to the suite's root, so any
 * copy of the suite finds them.
 */
function partnerSequencer(root: string) {
  return class PartnerSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const demand = readDemand();
      const byId = new Map(sorted.map((spec) => [spec.moduleId, spec]));
      return planFileOrder(
        sorted.map((spec) => spec.moduleId),
        (file) => demand.get(relative(root, file)),
      ).flatMap((id) => byId.get(id) ?? []);
    }
  };
}
