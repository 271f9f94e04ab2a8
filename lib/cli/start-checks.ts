import { PACKAGE_ROOT } from '../config/package-root.js';
import { DEFAULT_SUITES, type Settings } from '../config/settings.js';
import { checkFilesAtATime, checksSideBySide } from '../plan/concurrency.js';
import { ALLURE_DIR } from '../reports/write-reports.js';
import type { CollectedRun } from '../runner/collected.js';
import { ProgressLine, type ProgressOptions } from '../runner/progress-line.js';
import { TargetWatch } from '../runner/target-watch.js';
import type { RunConfig } from '../target/run-config.js';
import type { Terminal } from './terminal.js';

/**
 * A run's checks, started before its target is ready: vitest and
 * its workers start (most of a run's start-up) while the CLI prepares the
 * target and probes its dialect, and their checks wait for the RunConfig
 * those complete. `go` hands it over; `callOff` ends them unrun when the run
 * stops before its checks (a refused credential, a dialect mismatch).
 */
export interface StartedChecks {
  /** Check files at a time (`--concurrency` or the default for this kind of target). */
  readonly filesAtATime: number;
  /** How far checks go side by side (RunConfig.concurrency): above `filesAtATime` against the bundled reference. */
  readonly sideBySide: number;
  /** Why the run was stopped half-way (the target stopped answering); undefined if it was not. */
  readonly stopReason: string | undefined;
  /** The checks go ahead with this configuration; answers their results. */
  go(runConfig: RunConfig): Promise<CollectedRun>;
  /** The checks will not run: answers once vitest has stopped. Nothing once `go` was called. */
  callOff(reason: Error): Promise<void>;
}

/** Where the progress line goes, and Ctrl-C. */
interface ChecksIo {
  stderr: NonNullable<ProgressOptions['stream']>;
  signal?: AbortSignal;
}

/** The checks start at once and wait for the run's configuration (`go`). */
export function startChecks(settings: Settings, io: ChecksIo, terminal: Terminal): StartedChecks {
  // What the target will be is known from the settings: the bundled reference always has a
  // control API; a target elsewhere has one when --control-url is given (lib/prepare/prepare-target.ts).
  const embedded = settings.target === undefined;
  const partnerMode = !embedded && settings.controlUrl === undefined;
  const target = {
    embedded,
    control: !partnerMode,
    ...(settings.concurrency !== undefined ? { requested: settings.concurrency } : {}),
  };
  const filesAtATime = checkFilesAtATime(target);
  // Checks on accounts of their own side by side, a property's runs in lanes of their own accounts.
  const sideBySide = checksSideBySide(target);
  const withConcurrency = (config: RunConfig) => ({
    ...config,
    concurrency: sideBySide,
    filesAtATime,
  });
  let open: (runConfig: RunConfig) => void = () => {};
  let refuse: (reason: Error) => void = () => {};
  const runConfig = new Promise<RunConfig>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });

  // Ctrl-C, or a target that stops answering half-way: either cancels the checks still to run.
  const stop = new AbortController();
  const onCancel = () => stop.abort();
  io.signal?.addEventListener('abort', onCancel, { once: true });
  const watch = new TargetWatch((reason) => {
    terminal.fail(`stopping the run: ${reason}`);
    stop.abort();
  });
  const run = import('../runner/run-suites.js')
    .then(({ runSuites }) =>
      runSuites({
        root: PACKAGE_ROOT,
        include: settings.suites,
        runConfig,
        only: settings.only,
        allureResultsDir: `${settings.reportDir}/${ALLURE_DIR}`,
        reporters: [new ProgressLine({ stream: io.stderr }), watch],
        maxWorkers: filesAtATime,
        shareModules: partnerMode,
        // The bundled checks several to a vitest file: a folder at a time against the bundled
        // reference, one file at a time (check-groups.ts); against a target elsewhere, a lane of
        // files side by side per worker (check-lanes.ts). Not in partner mode, whose files share
        // one key's limits, planned file by file.
        grouped:
          !partnerMode && (!embedded || filesAtATime === 1) && settings.suites === DEFAULT_SUITES,
        signal: stop.signal,
      }),
    )
    .finally(() => io.signal?.removeEventListener('abort', onCancel));
  run.catch(() => undefined);

  let decided = false;
  return {
    filesAtATime,
    sideBySide,
    get stopReason() {
      return watch.reason;
    },
    go(config) {
      decided = true;
      open(withConcurrency(config));
      return run;
    },
    async callOff(reason) {
      if (decided) return;
      decided = true;
      refuse(reason);
      await run.catch(() => undefined);
    },
  };
}
