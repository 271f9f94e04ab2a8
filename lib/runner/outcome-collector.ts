import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestRunEndReason,
} from 'vitest/node';
import type { CollectedRun, CollectedTest, FileError } from './collected.js';
import { errorLine } from './error-line.js';
import { reportedName } from './source-name.js';

/**
 * The vitest reporter that gathers each check's result: the CheckOutcome a
 * check leaves on `task.meta.conformance`, and, so that no result is ever
 * lost, vitest's own view (state, errors) for tests that left none, files
 * that failed to load, and errors outside any test. It reads the final tree
 * once, when the run ends: states are settled then, skipped tests included.
 */
export class OutcomeCollector implements Reporter {
  readonly #root: string;
  #run: CollectedRun | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const tests: CollectedTest[] = [];
    const fileErrors: FileError[] = [];
    for (const module of modules) {
      const file = reportedName(this.#root, module.moduleId);
      const moduleTests = [...module.children.allTests()];
      for (const testCase of moduleTests) tests.push(collectTest(testCase, this.#root));
      for (const error of module.errors()) {
        const message = errorLine(error);
        // A group that failed to load (check-group.ts): its check files, not the group, failed.
        const unloaded = unloadedByGroup(error);
        for (const path of unloaded)
          fileErrors.push({ file: reportedName(this.#root, path), message, collected: false });
        if (unloaded.length === 0)
          fileErrors.push({ file, message, collected: moduleTests.length > 0 });
      }
      for (const suite of module.children.allSuites()) {
        for (const error of suite.errors())
          fileErrors.push({ file, message: errorLine(error), collected: true });
      }
    }
    this.#run = { tests, fileErrors, unhandled: unhandledErrors.map(errorLine), endReason: reason };
  }

  /** The run as collected; an empty run when vitest never reached its end. */
  result(): CollectedRun {
    return this.#run ?? { tests: [], fileErrors: [], unhandled: [], endReason: 'interrupted' };
  }
}

/**
 * A check's result as the reports take it: its outcome, else vitest's view. Its file is the
 * check file it registered from (a group's, `meta.checkFile`), by its reported name below `root`.
 */
export function collectTest(testCase: TestCase, root: string): CollectedTest {
  const result = testCase.result();
  const { ruleId, conformance: outcome, checkFile } = testCase.meta();
  const file = reportedName(root, checkFile ?? testCase.module.moduleId);
  const duration = testCase.diagnostic()?.duration;
  return {
    name: testCase.name,
    ...(ruleId ? { ruleId } : {}),
    file,
    state: result.state,
    mode: testCase.options.mode,
    errors: (result.errors ?? []).map(errorLine),
    ...(outcome ? { outcome } : {}),
    ...(duration === undefined ? {} : { durationMs: Math.round(duration) }),
  };
}

/** The check files a group's GroupLoadError names as not loaded (none for any other error). */
function unloadedByGroup(error: SerializedError): string[] {
  const unloaded = (error as { unloaded?: unknown }).unloaded;
  return Array.isArray(unloaded) ? unloaded.filter((path) => typeof path === 'string') : [];
}
