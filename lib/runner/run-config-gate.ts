/**
 * A vitest setup file, the first one: runs in the worker before each check
 * file. The workers start while the CLI still prepares and probes the target
 * (so that their start-up and the target's round trips overlap); before
 * its first check file, a worker waits here for the run's RunConfig
 * (lib/client/run-config-channel.ts). When the workers started before it
 * was known (`early`), it meanwhile loads what every check file imports: the
 * packages and the immutable definitions stay loaded across files
 * (fresh-modules.ts), so the first file finds them ready. Otherwise it is
 * there at once, and the first file loads them itself (loading the engine
 * here too would only evaluate it twice).
 */
import { inject } from 'vitest';
import {
  RUN_CHANNEL_KEY,
  type RunChannel,
  receivedRunConfigs,
  receiveRunConfigs,
} from '../client/run-config-channel.js';

declare module 'vitest' {
  export interface ProvidedContext {
    [RUN_CHANNEL_KEY]: RunChannel;
  }
}

if (!receivedRunConfigs()) {
  const { name, early } = inject(RUN_CHANNEL_KEY);
  await Promise.all([receiveRunConfigs(name), early ? import('../check/index.js') : undefined]);
}
