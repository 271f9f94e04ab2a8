import { sep } from 'node:path';
import { expect, inject } from 'vitest';
import { RUN_CONFIG_KEY, type RunConfig } from '../target/run-config.js';

/**
 * The `provide` key of a run against several targets at once (the fault and
 * dialect matrices, test/faults/run-targets.ts): a RunConfig per folder of
 * check files.
 */
export const TARGETS_KEY = 'conformance:targets';

declare module 'vitest' {
  export interface ProvidedContext {
    [TARGETS_KEY]: Record<string, RunConfig>;
  }
}

/**
 * The RunConfig of the check file being run: the run's one (`provide`d under
 * `conformance`), or in a run against several targets the one of the folder
 * the file lies in. Read from the file's own path each time: no module state.
 */
export function currentRunConfig(): RunConfig | undefined {
  const byFolder = inject(TARGETS_KEY);
  if (!byFolder) return inject(RUN_CONFIG_KEY);
  const file = expect.getState().testPath ?? '';
  for (const [folder, config] of Object.entries(byFolder)) {
    if (file.startsWith(`${folder}${sep}`) || file.startsWith(`${folder}/`)) return config;
  }
  return undefined;
}
