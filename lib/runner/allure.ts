import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult } from 'allure-js-commons';
import type { LifecycleListener, Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { Reporter, TestModule } from 'vitest/node';
import { AREAS, findRule } from '../../rules/index.js';
import { isSelected } from '../config/only.js';
import { allureRuleId } from '../reports/allure-id.js';
import { ALLURE_STATUS } from '../reports/allure-status.js';
import { verdictOfTest } from '../verdict/decide.js';
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
): Reporter {
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
        mkdirSync(resultsDir, { recursive: true });
        writeFileSync(join(resultsDir, source), JSON.stringify(body, null, 2));
        result.attachments.push({ name: 'evidence', type: 'application/json', source });
      }
    },
  };
  return new UnsyncedAllureReporter(resultsDir, listener, (module) => {
    for (const testCase of module.children.allTests())
      collected.set(testCase.name, collectTest(testCase, root));
  }) as unknown as Reporter;
}

/**
 * allure-vitest's reporter, writing each check file's results as the file
 * ends, and without allure-js-commons' fsync, temporary file and rename for
 * each of its ~200 result files (a durability no report of the run has:
 * report.json and the others are written plainly too).
 *
 * allure-vitest writes every result when the run ends, on the run's
 * critical path (0.15 to 0.28 s of a full run against the bundled reference
 * on a 2-core machine, after its last request); written as each file ends,
 * that work falls while the checks' worker runs the next file, when the
 * CLI's thread has time to spare. A file's results are settled when it ends;
 * files that never ended (a run stopped half-way) are written at the run's
 * end, as before.
 */
class UnsyncedAllureReporter extends AllureVitestReporter {
  readonly #resultsDir: string;
  /** Takes in a file's checks before their results are written (the listener reads them). */
  readonly #collect: (module: TestModule) => void;
  /** The files whose results are written. */
  readonly #written = new Set<string>();

  constructor(
    resultsDir: string,
    listener: LifecycleListener,
    collect: (module: TestModule) => void,
  ) {
    super({ resultsDir, listeners: [listener] });
    this.#resultsDir = resultsDir;
    this.#collect = collect;
  }

  onTestModuleEnd(module: TestModule): void {
    this.#collect(module);
    this.#written.add(module.id);
    // A TestModule holds its runner task, as allure-vitest's own onTestRunEnd reads it.
    this.handleTask(
      (module as unknown as { task: Parameters<AllureVitestReporter['handleTask']>[0] }).task,
    );
  }

  override onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const left = modules.filter((module) => !this.#written.has(module.id));
    for (const module of left) this.#collect(module);
    super.onTestRunEnd(left);
  }

  override onInit(vitest: Parameters<AllureVitestReporter['onInit']>[0]): void {
    super.onInit(vitest);
    // The runtime is made in onInit (allure-vitest 3): its writer is swapped once, before any result.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: Writer } })
      .allureReporterRuntime;
    if (runtime) runtime.writer = unsyncedWriter(this.#resultsDir, runtime.writer);
  }
}

function unsyncedWriter(dir: string, synced: Writer): Writer {
  const write = (name: string, content: string | Buffer) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), content);
  };
  return {
    writeResult: (result) => write(`${result.uuid}-result.json`, JSON.stringify(result)),
    writeGroup: (group) => write(`${group.uuid}-container.json`, JSON.stringify(group)),
    writeAttachment: (name, content) => write(name, content),
    writeAttachmentFromPath: (name, from) => {
      mkdirSync(dir, { recursive: true });
      copyFileSync(from, join(dir, name));
    },
    writeGlobals: (name, info) => write(name, JSON.stringify(info)),
    // Once per run each: as allure-js-commons writes them.
    writeEnvironmentInfo: (info) => synced.writeEnvironmentInfo(info),
    writeCategoriesDefinitions: (categories) => synced.writeCategoriesDefinitions(categories),
  };
}
