import { ENV_ONLY, OPTIONS } from './options.js';

/** Names that look like a setting of this suite: a typo among them would otherwise go unnoticed. */
const PREFIXES = ['CONFORMANCE_', 'PARTNER_', 'CONTROL_', 'TARGET_'] as const;

/** Every environment name the suite reads, from the option tables (so an added option is known at once). */
function settingNames(): string[] {
  return [...OPTIONS.map((o) => o.env), ...ENV_ONLY.map((v) => v.env)].filter(Boolean);
}

/**
 * Read by bin/conformance.js itself from the environment, before any setting (run the
 * TypeScript through tsx): no setting, and no `.env` line either, since the launcher has
 * decided how to start before `.env` is read.
 */
const LAUNCHER_ENV = ['CONFORMANCE_FROM_SOURCE'];

/**
 * A warning for each name (environment or `.env`) that starts like a setting
 * but is not one, naming the closest real setting: `CONFORMANCE_ONLYY` is
 * ignored, and the user should hear that before the run, not after it.
 */
export function unknownSettingWarnings(
  names: readonly { name: string; source: string }[],
  known: readonly string[] = settingNames(),
): string[] {
  const warnings: string[] = [];
  for (const { name, source } of names) {
    if (!PREFIXES.some((prefix) => name.startsWith(prefix)) || known.includes(name)) continue;
    if (LAUNCHER_ENV.includes(name) && source === name) continue;
    const closest = closestName(name, known);
    warnings.push(
      `warning: ${source} is not a setting of this suite and is ignored${closest ? `; did you mean ${closest}?` : ''}`,
    );
  }
  return warnings;
}

function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Levenshtein distance (insert, delete, substitute), one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitute));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}
