import { isAbsolute, join, resolve } from 'node:path';
import { PACKAGE_ROOT, SOURCE_ROOT } from '../config/package-root.js';
import { DEFAULT_SUITES, DEFAULT_TIMEOUT_MS, type Settings } from '../config/settings.js';
import type { ReplaySettings } from '../reports/reproduce.js';

/**
 * The run's resolved settings as a replay needs them: absolute paths (the
 * replay may start in another directory) and nothing secret.
 */
export function replaySettings(settings: Settings, cwd: string): ReplaySettings {
  return {
    bin: join(SOURCE_ROOT, 'bin', 'conformance.js'),
    ...(settings.target ? { target: settings.target } : {}),
    ...(settings.controlUrl ? { controlUrl: settings.controlUrl } : {}),
    ...(settings.profile.file ? { profileFile: resolve(cwd, settings.profile.file) } : {}),
    seed: settings.seed,
    numRuns: settings.numRuns,
    ...(settings.requestTimeoutMs !== DEFAULT_TIMEOUT_MS
      ? { timeoutMs: settings.requestTimeoutMs }
      : {}),
    allowLiveOrders: settings.allowLiveOrders,
    ...(settings.suites !== DEFAULT_SUITES
      ? {
          suites: isAbsolute(settings.suites)
            ? settings.suites
            : join(PACKAGE_ROOT, settings.suites),
        }
      : {}),
    ...(settings.partnerKey ? { partnerAccessKeyId: settings.partnerKey.accessKeyId } : {}),
  };
}
