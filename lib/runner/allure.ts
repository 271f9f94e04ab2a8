import { randomUUID } from 'node:crypto';
import type { TestResult } from 'allure-js-commons';
import type { LifecycleListener, Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { AREAS, findRule } from '../../rules/index.js';
import { isSelected } from '../config/only.js';
import { allureRuleId } from '../reports/allure-id.js';
import { ALLURE_STATUS } from '../reports/allure-status.js';
import { verdictOfTest } from '../verdict/decide.js';
import { AsyncFiles } from './async-files.js';
import type { CollectedTest } from './collected.js';
import { collectTest } from './outcome-collector.js';

/** allure-js-commons' label of a test's id as its file and name made it. */
const FALLBACK_TEST_CASE_ID = '_fallbackTestCaseId';

/** allure-vitest's labels of the vitest suites a test is in. */
const SUITE_LABELS = new Set(['parentSuite', 'suite', 'subSuite']);

const SEVERITY = { MUST: 'critical', SHOULD: 'normal', DIALECT: 'minor' } as const;

/**
 * allure-vitest's own reporter, writing into `<report-dir>/allure-results`.
 * It sees vitest's pass/fail only; a listener rewrites each result before it
 * is written with the conformance verdict, the rule's labels and the
 * evidence as an attachment, so Allure tells the same story as report.json.
 * `root`: the suite's root, by which report.json names the check files.
 */
export function allureReporter(
  resultsDir: string,
  only: readonly string[],
  root: string,
): AllureResults {
  const files = new AsyncFiles(resultsDir);
  /** The checks of the files being written, as the reports take them, by name (`${id} ${title}`). */
  const collected = new Map<string, CollectedTest>();
  const listener: LifecycleListener = {
    /**
     * Names the result by its check file's source (report.json's `file`), not by the copy that
     * ran it (a checkout's compiled copy lies in node_modules/.cache under a hash of its
     * sources), and gives it the identity of its rule, as the results completed at the run's end
     * have (lib/reports/allure-complete.ts): its history in Allure goes on from run to run,
     * whatever copy of the suite ran it. Before the stop, where Allure derives its ids.
     */
    beforeTestResultStop(result: TestResult): void {
      const name = result.name ?? '';
      const test = collected.get(name);
      if (!test) return;
      const id = allureRuleId(name);
      const path = test.file.split('/');
      result.fullName = `${test.file}#${name}`;
      result.titlePath = path;
      result.testCaseId = id;
      result.historyId = id;
      // A group's check file running side by side is a vitest suite (check-group.ts), which
      // allure-vitest would add as a suite label: the file is the package, as when it runs alone.
      result.labels = result.labels.filter((label) => !SUITE_LABELS.has(label.name));
      for (const label of result.labels) {
        if (label.name === 'package') label.value = path.join('.');
        if (label.name === FALLBACK_TEST_CASE_ID) label.value = id;
      }
    },
    beforeTestResultWrite(result: TestResult): void {
      const name = result.name ?? '';
      const test = collected.get(name);
      const rule = test?.ruleId ? findRule(test.ruleId) : undefined;
      if (!test || !rule) return;
      const { verdict, reason, outcome } = verdictOfTest(
        test,
        rule.level,
        isSelected(only, rule.id),
      );
      result.status = ALLURE_STATUS[verdict] as NonNullable<TestResult['status']>;
      result.statusDetails = { ...(reason ? { message: reason } : {}) };
      result.labels.push(
        { name: 'epic', value: AREAS[rule.area] },
        { name: 'feature', value: rule.area },
        { name: 'story', value: rule.id },
        { name: 'severity', value: SEVERITY[rule.level] },
        { name: 'tag', value: rule.level },
        { name: 'tag', value: verdict },
      );
      result.parameters.push({ name: 'section', value: rule.section });
      if (outcome && (outcome.evidence.length || outcome.violations.length)) {
        const source = `${randomUUID()}-attachment.json`;
        const body = {
          violations: outcome.violations,
          counterexample: outcome.counterexample,
          evidence: outcome.evidence,
        };
        files.write(source, JSON.stringify(body, null, 2));
        result.attachments.push({ name: 'evidence', type: 'application/json', source });
      }
    },
  };
  const reporter = new UnsyncedAllureReporter(
    resultsDir,
    listener,
    (testCase) => {
      collected.set(testCase.name, collectTest(testCase, root));
    },
    files,
  );
  return { reporter: reporter as unknown as Reporter, failure: () => reporter.failure };
}

/** The reporter that writes allure-results, and what it could not write. */
export interface AllureResults {
  reporter: Reporter;
  /**
   * Why some of allure-results is missing (a write that failed: the first), once the run has
   * ended; undefined when all of it was written. The run's other reports are written all the same.
   */
  failure(): string | undefined;
}

/**
 * allure-vitest's reporter, writing each check's result while the run goes
 * on, through the thread pool, and without allure-js-commons' fsync,
 * temporary file and rename for each of its ~460 files (a durability no
 * report of the run has: report.json and the others are written plainly too).
 *
 * A check's result is taken in as it ends and written a few at a time
 * between turns of this thread's event loop (the bundled reference's
 * requests, vitest's messages), its bytes written by the thread pool: a
 * group (lib/runner/check-group.ts) runs many check files as one vitest file,
 * and its results waiting for its end would all be written in the pause
 * before the next group, or after the last. What a file holds beside its
 * checks (its suites' hook errors) is taken in when it ends and written once
 * the next file is collected: between two files the checks' worker waits on
 * this thread (vitest awaits every reporter's `onTestModuleEnd` before the
 * worker goes on, and the worker then asks this thread for the next file's
 * modules), and written there, at once and synchronously, a file's results
 * held up the next file (0.1 to 0.45 s with no request in flight in a full
 * run). `onTestRunEnd` writes what is left (the last file; files that never
 * ended: a run stopped half-way) and answers once every write is done,
 * before the reports read the folder (lib/reports/allure-complete.ts). A
 * write that failed is the run's error (AllureResults.failure), never the end
 * of it: the other reports are written.
 */
class UnsyncedAllureReporter extends AllureVitestReporter {
  readonly #files: AsyncFiles;
  /** Takes in a check before its result is written (the listener reads it). */
  readonly #collect: (testCase: TestCase) => void;
  /** The checks whose results are written or on their way, by vitest's id. */
  readonly #taken = new Set<string>();
  /** The files whose results are written or on their way. */
  readonly #written = new Set<string>();
  /** The tasks whose results are still to be written, one at a time. */
  readonly #waiting: Task[] = [];
  #scheduled = false;
  /** AllureResults.failure: set once the run has ended. */
  failure: string | undefined;

  constructor(
    resultsDir: string,
    listener: LifecycleListener,
    collect: (testCase: TestCase) => void,
    files: AsyncFiles,
  ) {
    super({ resultsDir, listeners: [listener] });
    this.#files = files;
    this.#collect = collect;
  }

  onTestCaseResult(testCase: TestCase): void {
    this.#collect(testCase);
    this.#taken.add(testCase.id);
    this.#waiting.push(taskOf(testCase));
    this.#schedule();
  }

  onTestModuleEnd(module: TestModule): void {
    this.#written.add(module.id);
    this.#waiting.push(...this.#rest(module));
  }

  /** A file's modules are loaded and its checks start: the worker no longer waits on this thread. */
  onTestModuleCollected(): void {
    this.#schedule();
  }

  /** What of a file is still to be written: its suites (their hooks' errors), and checks not taken in as they ended. */
  #rest(module: TestModule): Task[] {
    for (const testCase of module.children.allTests())
      if (!this.#taken.has(testCase.id)) this.#collect(testCase);
    return oneByOne(taskOf(module)).filter(
      (task) => task.type === 'suite' || !this.#taken.has(task.id),
    );
  }

  #schedule(): void {
    if (this.#scheduled || this.#waiting.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#writeWaiting(SLICE_MS);
      this.#schedule();
    });
  }

  /** Writes waiting results for about `budgetMs` (all of them: Infinity). */
  #writeWaiting(budgetMs: number): void {
    const until = performance.now() + budgetMs;
    while (this.#waiting.length > 0 && performance.now() < until) {
      const task = this.#waiting.shift() as Task;
      try {
        this.handleTask(task);
      } catch (error) {
        this.#files.fail(error);
      }
    }
  }

  override async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    for (const module of modules)
      if (!this.#written.has(module.id)) this.#waiting.push(...this.#rest(module));
    this.#writeWaiting(Number.POSITIVE_INFINITY);
    try {
      // Its tasks all written above: what is left is the run's global messages (hooks' errors).
      super.onTestRunEnd([]);
    } catch (error) {
      this.#files.fail(error);
    }
    this.failure = await this.#files.settled().then(
      () => undefined,
      (error: unknown) =>
        `allure-results: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  override onInit(vitest: Parameters<AllureVitestReporter['onInit']>[0]): void {
    super.onInit(vitest);
    // The runtime is made in onInit (allure-vitest 3): its writer is swapped once, before any result.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: Writer } })
      .allureReporterRuntime;
    if (runtime) runtime.writer = unsyncedWriter(this.#files, runtime.writer);
  }
}

/** allure-vitest's task of a file or a check, as its own onTestRunEnd reads it from a TestModule. */
type Task = Parameters<AllureVitestReporter['handleTask']>[0];
const taskOf = (entity: TestModule | TestCase) => (entity as unknown as { task: Task }).task;

/**
 * A slice of writing between two turns of this thread's event loop (the worker's requests for
 * modules, the bundled reference's requests): a few results.
 */
const SLICE_MS = 2;

/**
 * A file's tasks as allure-vitest's `handleTask` walks them, one at a time: each suite without
 * its children (its hooks' errors), then its children; nothing below a suite skipped unrun.
 */
function oneByOne(task: Task): Task[] {
  if (task.mode === 'skip' && !task.result) return [];
  if (task.type !== 'suite') return [task];
  return [
    { ...task, tasks: [] } as Task,
    ...task.tasks.flatMap((inner) => oneByOne(inner as Task)),
  ];
}

function unsyncedWriter(files: AsyncFiles, synced: Writer): Writer {
  return {
    writeResult: (result) => files.write(`${result.uuid}-result.json`, JSON.stringify(result)),
    writeGroup: (group) => files.write(`${group.uuid}-container.json`, JSON.stringify(group)),
    writeAttachment: (name, content) => files.write(name, content),
    writeAttachmentFromPath: (name, from) => files.copy(from, name),
    writeGlobals: (name, info) => files.write(name, JSON.stringify(info)),
    // Once per run each: as allure-js-commons writes them.
    writeEnvironmentInfo: (info) => synced.writeEnvironmentInfo(info),
    writeCategoriesDefinitions: (categories) => synced.writeCategoriesDefinitions(categories),
  };
}
