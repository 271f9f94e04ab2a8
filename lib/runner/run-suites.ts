import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { BaseSequencer, createVitest, type Reporter, type TestSpecification } from 'vitest/node';
import { testNamePattern } from '../config/only.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../target/run-config.js';
import { allureReporter } from './allure.js';
import { CHECK_RUN_OPTIONS, FRESH_MODULES, VITE_CACHE_DIR } from './check-run-options.js';
import type { CollectedRun } from './collected.js';
import { filesForOnly } from './only-files.js';
import { OutcomeCollector } from './outcome-collector.js';
import { readDemand } from './partner-demand.js';
import { planFileOrder } from './partner-plan.js';

export interface SuiteRunOptions {
  /** The suite's root: where `suites/` lives. */
  root: string;
  /** Glob of check files, relative to root (or absolute). */
  include: string;
  runConfig: RunConfig;
  only: readonly string[];
  /** Where allure-vitest writes; undefined: no Allure results. */
  allureResultsDir?: string;
  /** Extra reporters, e.g. the progress line. */
  reporters?: Reporter[];
  /** Per-check timeout (ms); generated properties need room. */
  testTimeoutMs?: number;
  /**
   * Check files run side by side (`--concurrency`, default from
   * concurrency.ts). Threads waiting on the network cost no CPU, so this may
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
  /** Aborting cancels the run: unfinished checks end as `error` (interrupted). */
  signal?: AbortSignal;
}

/**
 * Runs the check files with vitest's programmatic API. The RunConfig
 * reaches the workers through `provide` (they read it with
 * `inject('conformance')`); the results come back through our reporter.
 * vitest's own console output is swallowed: the progress line and the
 * reports speak for the run.
 */
export async function runSuites(options: SuiteRunOptions): Promise<CollectedRun> {
  const collector = new OutcomeCollector(options.root);
  const reporters: Reporter[] = [collector, ...(options.reporters ?? [])];
  if (options.allureResultsDir) {
    // Allure shows every result file in the folder: a reused --report-dir keeps no earlier run's.
    rmSync(options.allureResultsDir, { recursive: true, force: true });
    reporters.push(
      allureReporter(options.allureResultsDir, options.only, (name) => collector.testNamed(name)),
    );
  }
  const pattern = testNamePattern(options.only);
  // --only: only the files that hold a selected rule's check are started.
  const files = filesForOnly(options.root, options.include, options.only);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const sigintBefore = new Set(process.listeners('SIGINT'));
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: options.root,
      dir: options.root,
      include: files?.length ? files : [options.include],
      watch: false,
      reporters,
      provide: { [RUN_CONFIG_KEY]: options.runConfig },
      ...CHECK_RUN_OPTIONS,
      // Each file has its own control account, so files run side by side safely.
      setupFiles: options.shareModules ? [] : [FRESH_MODULES],
      maxWorkers: options.shareModules ? 1 : (options.maxWorkers ?? 2),
      fileParallelism: !options.shareModules,
      // Partner mode: the files' order is planned against the key's rate limits (partner-plan.ts).
      ...(options.shareModules ? { sequence: { sequencer: partnerSequencer(options.root) } } : {}),
      testTimeout: options.testTimeoutMs ?? 60_000,
      ...(pattern ? { testNamePattern: pattern } : {}),
    },
    {
      logLevel: 'silent',
      cacheDir: VITE_CACHE_DIR,
    },
    { stdout: sink, stderr: sink },
  );
  // vitest's logger exits the process on Ctrl-C; the CLI owns Ctrl-C (cancel the run, still write the reports).
  for (const listener of process.listeners('SIGINT')) {
    if (!sigintBefore.has(listener)) process.off('SIGINT', listener);
  }
  const cancel = () => void vitest.cancelCurrentRun('keyboard-input');
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    if (!options.signal?.aborted) await vitest.start();
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    await vitest.close();
  }
  return collector.result();
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
