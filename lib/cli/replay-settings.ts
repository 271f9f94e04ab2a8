import { isAbsolute, join, relative, resolve } from 'node:path';
import { PACKAGE_ROOT, SOURCE_ROOT } from '../config/package-root.js';
import { DEFAULT_SUITES, DEFAULT_TIMEOUT_MS, type Settings } from '../config/settings.js';
import type { ReplaySettings } from '../reports/reproduce.js';

/**
 * The run's resolved settings as a replay needs them: nothing secret and no
 * absolute path of the suite (a replay runs wherever the package is installed): a bundled
 * profile by its name, the
 * user's own profile and check files relative to the run's directory.
 */
export function replaySettings(settings: Settings, cwd: string): ReplaySettings {
  return {
    ...(settings.target ? { target: settings.target } : {}),
    ...(settings.controlUrl ? { controlUrl: settings.controlUrl } : {}),
    ...(settings.profile.file ? { profileFile: profileOption(settings.profile.file, cwd) } : {}),
    seed: settings.seed,
    numRuns: settings.numRuns,
    ...(settings.requestTimeoutMs !== DEFAULT_TIMEOUT_MS
      ? { timeoutMs: settings.requestTimeoutMs }
      : {}),
    allowLiveOrders: settings.allowLiveOrders,
    ...(settings.suites !== DEFAULT_SUITES
      ? {
          suites: portable(
            isAbsolute(settings.suites) ? settings.suites : join(SOURCE_ROOT, settings.suites),
            cwd,
          ),
        }
      : {}),
    ...(settings.partnerKey ? { partnerAccessKeyId: settings.partnerKey.accessKeyId } : {}),
  };
}

/** A profile the package bundles by its name (found wherever the suite is installed), else a relative path. */
function profileOption(file: string, cwd: string): string {
  const absolute = resolve(cwd, file);
  // The sources' config/ or the compiled tree's: either way the package's own profile.
  for (const root of new Set([SOURCE_ROOT, PACKAGE_ROOT])) {
    const bundled = relative(join(root, 'config'), absolute);
    if (
      !bundled.startsWith('..') &&
      !isAbsolute(bundled) &&
      /^[A-Za-z0-9][\w.-]*\.json$/.test(bundled)
    )
      return bundled.slice(0, -'.json'.length);
  }
  return portable(absolute, cwd);
}

/** A path relative to the run's directory (where the replay is meant to start). */
function portable(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('.') ? rel : `./${rel}`;
}
