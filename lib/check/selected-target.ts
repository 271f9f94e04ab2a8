import { inject } from 'vitest';
import { RUN_CONFIG_KEY, type RunConfig } from '../target/run-config.js';

/** The `provide` key of a many-target run (lib/runner/run-targets.ts): every target's RunConfig, by name. */
export const TARGETS_KEY = 'conformance:targets';

declare module 'vitest' {
  export interface ProvidedContext {
    [TARGETS_KEY]: Record<string, RunConfig>;
  }
}

let selected: string | undefined;

/**
 * Called first by each check file of a many-target run (its generated
 * wrapper): the file's checks run against this target. Module state is
 * fresh per check file (lib/runner/fresh-modules.ts), so the choice holds
 * for this file only.
 */
export function selectTarget(name: string): void {
  selected = name;
}

/**
 * The RunConfig of the check file being run: its selected target's in a
 * many-target run, otherwise the run's one (`provide`d under `conformance`).
 */
export function currentRunConfig(): RunConfig | undefined {
  if (selected === undefined) return inject(RUN_CONFIG_KEY);
  return inject(TARGETS_KEY)?.[selected];
}
