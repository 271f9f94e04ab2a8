import { sep } from 'node:path';
import { expect } from 'vitest';
import { receivedRunConfigs } from '../client/run-config-channel.js';
import type { RunConfig } from '../target/run-config.js';

/**
 * The RunConfig of the check file being run: the run's one, or in a run
 * against several targets (the fault and dialect matrices,
 * test/matrices/run-targets.ts) the one of the folder the file lies in. The
 * worker received them before its first file (lib/runner/run-config-gate.ts).
 * Read from the file's own path each time: no module state.
 */
export function currentRunConfig(): RunConfig | undefined {
  const configs = receivedRunConfigs();
  if (!configs) return undefined;
  if ('one' in configs) return configs.one;
  const file = expect.getState().testPath ?? '';
  for (const [folder, config] of Object.entries(configs.byFolder)) {
    if (file.startsWith(`${folder}${sep}`) || file.startsWith(`${folder}/`)) return config;
  }
  return undefined;
}
