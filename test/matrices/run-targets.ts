import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { globSync } from 'tinyglobby';
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';
import { createVitest } from 'vitest/node';
import { RUN_CHANNEL_KEY, serveRunConfigs } from '../../lib/client/run-config-channel.js';
import { pruneResultsCache } from '../../lib/plan/results-cache.js';
import { VITE_CACHE_DIR } from '../../lib/plan/run-cache.js';
import {
  CHECK_RUN_OPTIONS,
  FRESH_MODULES,
  RUN_CONFIG_GATE,
} from '../../lib/runner/check-run-options.js';
import type { CollectedRun } from '../../lib/runner/collected.js';
import { OutcomeCollector } from '../../lib/runner/outcome-collector.js';
import type { RunConfig } from '../../lib/target/run-config.js';
import { emptyDir } from '../support/temp-dir.js';

/** One target of a many-target run: its own checks and its own RunConfig. */
export interface SuiteTarget {
  /** Unique among the run's targets. */
  name: string;
  /** Glob of check files, absolute or relative to the root. */
  include: string;
  runConfig: RunConfig;
}

export interface TargetsRunOptions {
  /** The suite's root: where `suites/` lives. */
  root: string;
  targets: readonly SuiteTarget[];
  /** Check files run side by side, whichever target they belong to. */
  maxWorkers?: number;
  testTimeoutMs?: number;
  /** Told when every check file of a target has ended (its server may be closed then). */
  onTargetEnd?: (name: string, run: CollectedRun) => void | Promise<void>;
}

/** Where a generated wrapper leads: its target and the real check file (relative to the root). */
interface Wrapped {
  target: string;
  file: string;
}

/**
 * The suite against several targets in one invocation (the defect matrix and
 * the dialect matrix run ~150 this way): one vitest instance and one pool of
 * reused workers for every target, so what a CLI run pays once per process
 * (vitest, workers, loading the engine) is paid once for all of them. Test
 * machinery: a user's run goes through lib/runner/run-suites.ts.
 *
 * Each (target, check file) pair becomes a generated wrapper file, in a
 * folder of its target's, that imports the real check file; every target's
 * RunConfig goes by that folder (the run's channel carries them all, and
 * lib/check/selected-target.ts reads the one of the running file's folder:
 * no module state). Each (target, check file) pair is a module of its own
 * (the wrapper imports the check file under its target's query), so each
 * file has module state of its own, as in a single run, and its results come
 * back under the real file's name.
 */
export async function runSuitesOnTargets(
  options: TargetsRunOptions,
): Promise<Map<string, CollectedRun>> {
  const names = new Set(options.targets.map((target) => target.name));
  if (names.size !== options.targets.length) throw new Error('target names must be unique');
  const dir = emptyDir('conformance-targets-');
  try {
    const { wrapped, folders } = writeWrappers(dir, options.root, options.targets);
    const collector = new PerTargetCollector(options.root, wrapped, options.onTargetEnd);
    const channel = serveRunConfigs(Promise.resolve({ byFolder: folders }));
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    // The wrappers' entries in vitest's results cache outlive their folder: dropped at the next run.
    pruneResultsCache(options.root);
    const vitest = await createVitest(
      'test',
      {
        config: false,
        root: options.root,
        dir,
        include: ['**/*.check.{ts,js}'],
        watch: false,
        reporters: [collector],
        provide: { [RUN_CHANNEL_KEY]: { name: channel.name, early: false } },
        ...CHECK_RUN_OPTIONS,
        // Workers are reused across files and targets too.
        setupFiles: [RUN_CONFIG_GATE, FRESH_MODULES],
        maxWorkers: options.maxWorkers ?? 2,
        testTimeout: options.testTimeoutMs ?? 60_000,
      },
      {
        logLevel: 'silent',
        cacheDir: VITE_CACHE_DIR,
        // The wrappers live outside the root; the files they import inside it.
        server: { fs: { strict: false } },
      },
      { stdout: sink, stderr: sink },
    );
    try {
      await vitest.start();
    } finally {
      channel.close();
      await vitest.close();
    }
    return collector.runs(options.targets.map((target) => target.name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes one wrapper per (target, check file), in one folder per target;
 * answers where each wrapper leads, by its path, and each folder's RunConfig.
 */
function writeWrappers(
  dir: string,
  root: string,
  targets: readonly SuiteTarget[],
): { wrapped: Map<string, Wrapped>; folders: Record<string, RunConfig> } {
  const wrapped = new Map<string, Wrapped>();
  const folders: Record<string, RunConfig> = {};
  targets.forEach((target, index) => {
    folders[join(dir, `t${index}`)] = target.runConfig;
    const pattern = isAbsolute(target.include) ? target.include : join(root, target.include);
    const files = globSync(pattern.replaceAll('\\', '/'), { absolute: true }).sort();
    for (const file of files) {
      const path = join(dir, `t${index}`, relative(root, file));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(
        path,
        [
          `// Generated by test/matrices/run-targets.ts: this check file against target ${JSON.stringify(target.name)}.`,
          // A module of its own for each target: the suite evaluates a bundled check file once in a
          // worker (lib/runner/kept-modules.ts), and here a worker runs it for several targets.
          `await import(${JSON.stringify(`${pathToFileURL(file).href}?target=${index}`)});`,
          '',
        ].join('\n'),
      );
      wrapped.set(path, { target: target.name, file: relative(root, file).replaceAll('\\', '/') });
    }
  });
  return { wrapped, folders };
}

/**
 * Splits the run's modules by target and reads each group as the
 * single-run collector does, under the real check files' names. A target's
 * run is handed on as soon as its last file ends; errors outside any file
 * belong to every target.
 */
class PerTargetCollector implements Reporter {
  readonly #root: string;
  readonly #wrapped: Map<string, Wrapped>;
  readonly #onTargetEnd: TargetsRunOptions['onTargetEnd'];
  readonly #pending = new Map<string, number>();
  readonly #modules = new Map<string, TestModule[]>();
  readonly #done = new Map<string, CollectedRun>();
  readonly #told: Promise<void>[] = [];

  constructor(
    root: string,
    wrapped: Map<string, Wrapped>,
    onTargetEnd: TargetsRunOptions['onTargetEnd'],
  ) {
    this.#root = root;
    this.#wrapped = wrapped;
    this.#onTargetEnd = onTargetEnd;
    for (const { target } of wrapped.values()) {
      this.#pending.set(target, (this.#pending.get(target) ?? 0) + 1);
    }
  }

  onTestModuleEnd(module: TestModule): void {
    const target = this.#wrapped.get(module.moduleId)?.target;
    if (target === undefined) return;
    this.#modules.set(target, [...(this.#modules.get(target) ?? []), module]);
    const left = (this.#pending.get(target) ?? 1) - 1;
    this.#pending.set(target, left);
    if (left === 0) {
      const run = this.#collect(this.#modules.get(target) ?? [], [], 'passed');
      this.#done.set(target, run);
      if (this.#onTargetEnd) this.#told.push(Promise.resolve(this.#onTargetEnd(target, run)));
    }
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    const byTarget = new Map<string, TestModule[]>();
    for (const module of modules) {
      const target = this.#wrapped.get(module.moduleId)?.target;
      if (target !== undefined) byTarget.set(target, [...(byTarget.get(target) ?? []), module]);
    }
    for (const [target, group] of byTarget) {
      // Re-read at the end: the final tree, the run's own end reason and its stray errors.
      const run = this.#collect(group, unhandledErrors, reason);
      if (!this.#done.has(target) && this.#onTargetEnd)
        this.#told.push(Promise.resolve(this.#onTargetEnd(target, run)));
      this.#done.set(target, run);
    }
    await Promise.all(this.#told);
  }

  runs(names: readonly string[]): Map<string, CollectedRun> {
    const empty: CollectedRun = {
      tests: [],
      fileErrors: [],
      unhandled: [],
      endReason: 'interrupted',
    };
    return new Map(names.map((name) => [name, this.#done.get(name) ?? empty]));
  }

  #collect(
    modules: readonly TestModule[],
    unhandled: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): CollectedRun {
    const collector = new OutcomeCollector(this.#root);
    collector.onTestRunEnd(modules, unhandled, reason);
    const run = collector.result();
    // The collector names files relative to the root: name the real check file, not its wrapper.
    const realFile = (file: string) => this.#wrapped.get(join(this.#root, file))?.file ?? file;
    return {
      ...run,
      tests: run.tests.map((test) => ({ ...test, file: realFile(test.file) })),
      fileErrors: run.fileErrors.map((error) => ({ ...error, file: realFile(error.file) })),
    };
  }
}
