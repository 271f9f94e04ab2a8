import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { activeRules } from '../../rules/index.js';
import { COMPILED } from '../config/package-root.js';

/**
 * Check groups (check-group.ts): modules written when the suite is compiled
 * (scripts/compile.mjs), each loading several of the bundled check files as one vitest file,
 * in name order. A compiled tree has them; a run from the TypeScript sources does not.
 * - `<folder>/<folder>.group.js`: a folder's check files;
 * - `<first>-<last>.run-group.js`, in suites/: the check files of several folders in a row.
 */
const GROUP_SUFFIX = '.group.js';
const RUN_GROUP_SUFFIX = '.run-group.js';

/**
 * What vitest runs of the bundled check files (its include, relative to `root`) when this tree
 * has groups. One check file at a time (the bundled reference): the groups of several folders,
 * fewer vitest files than a group per folder (each a pause of the checks between two: see
 * JOINED_FILES in scripts/compile.mjs). Several at a time (a target elsewhere): each folder's
 * group, but for the folders named in `alone`, whose check files run as vitest files of their
 * own. Undefined: no groups here, run the check files themselves.
 */
export function checkGroupsInclude(root: string, layout: GroupLayout): string[] | undefined {
  if (!COMPILED) return undefined;
  let names: string[];
  try {
    names = readdirSync(join(root, 'suites'), { recursive: true })
      .map(String)
      .map((name) => name.split(/[\\/]/).join('/'))
      .sort();
  } catch {
    return undefined;
  }
  return groupsFor(names, layout);
}

/** Which of the files below suites/ (`names`, `/`-separated) a run with this layout runs. */
export function groupsFor(names: readonly string[], layout: GroupLayout): string[] | undefined {
  if (layout.oneAtATime) {
    const joined = names.filter((name) => name.endsWith(RUN_GROUP_SUFFIX));
    if (joined.length > 0) return joined.map((name) => `suites/${name}`);
  }
  const groups = names.filter((name) => name.endsWith(GROUP_SUFFIX));
  const alone = layout.oneAtATime ? new Set<string>() : layout.alone;
  return groups.length === 0 ? undefined : groupsInclude(groups, alone);
}

/** One check file at a time (the bundled reference), or several, some folders' files alone. */
export type GroupLayout = { oneAtATime: true } | { oneAtATime: false; alone: ReadonlySet<string> };

/**
 * vitest's include for these groups (`<folder>/<folder>.group.js`, below suites/): each
 * group, but the check files themselves of the folders in `alone`.
 */
export function groupsInclude(groups: readonly string[], alone: ReadonlySet<string>): string[] {
  return groups.map((group) => {
    const folder = group.slice(0, group.lastIndexOf('/'));
    return alone.has(folder) ? `suites/${folder}/*.check.js` : `suites/${group}`;
  });
}

/**
 * The folders (named after their rules' area) whose checks provoke 429s: such a check spends a
 * rate limit's whole budget at once (300 reads), as many in flight as a worker has sockets.
 * Against a target elsewhere they run file by file, so that several of them at once are spread
 * over the workers instead of sharing one worker's sockets in a group (with every folder
 * grouped, through 200 ms of round-trip time, the rate folder's group took 22 s of a 26 s run).
 */
export function burstFolders(): ReadonlySet<string> {
  return new Set(
    activeRules.filter((rule) => rule.provokes429).map((rule) => rule.area.toLowerCase()),
  );
}
