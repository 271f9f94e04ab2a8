/**
 * A vitest setup file, the first one: runs in the worker before each check
 * file. The workers start while the CLI still prepares and probes the target
 * (issue 27: their start-up and the target's round trips overlap); before
 * its first check file, a worker waits here for the run's RunConfig
 * (lib/target/run-config-channel.ts) and meanwhile loads what every check
 * file imports: the packages and the immutable definitions stay loaded
 * across files (fresh-modules.ts), so the first file finds them ready.
 */
import { inject } from 'vitest';
import {
  RUN_CHANNEL_KEY,
  receivedRunConfigs,
  receiveRunConfigs,
} from '../target/run-config-channel.js';

declare module 'vitest' {
  export interface ProvidedContext {
    [RUN_CHANNEL_KEY]: string;
  }
}

if (!receivedRunConfigs()) {
  await Promise.all([receiveRunConfigs(inject(RUN_CHANNEL_KEY)), import('../check/index.js')]);
}
