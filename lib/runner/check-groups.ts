import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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
 * has groups. `alone`: the folders whose checks provoke 429s (burst-folders.ts).
 * - One check file at a time (the bundled reference): the groups of several folders, fewer
 *   vitest files than a group per folder (each a pause of the checks between two: see
 *   JOINED_FILES in scripts/compile.mjs), and the folders in `alone`, each its own group.
 * - Several at a time (a target elsewhere): each folder's group, but for the folders in
 *   `alone`, whose check files run as vitest files of their own.
 * Undefined: no groups here, run the check files themselves.
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
  const groups = names.filter((name) => name.endsWith(GROUP_SUFFIX));
  const joined = names.filter((name) => name.endsWith(RUN_GROUP_SUFFIX));
  if (layout.oneAtATime && joined.length > 0) {
    const aloneGroups = groups.filter((group) => layout.alone.has(folderOf(group)));
    return [...joined, ...aloneGroups].sort().map((name) => `suites/${name}`);
  }
  if (groups.length === 0) return undefined;
  // A tree without groups of several folders runs each folder's group one at a time too.
  return groupsInclude(groups, layout.oneAtATime ? new Set() : layout.alone);
}

/** One check file at a time (the bundled reference) or several; the folders whose checks provoke 429s. */
export interface GroupLayout {
  oneAtATime: boolean;
  alone: ReadonlySet<string>;
}

const folderOf = (group: string) => group.slice(0, group.lastIndexOf('/'));

/**
 * vitest's include for these groups (`<folder>/<folder>.group.js`, below suites/): each
 * group, but the check files themselves of the folders in `alone`.
 */
export function groupsInclude(groups: readonly string[], alone: ReadonlySet<string>): string[] {
  return groups.map((group) => {
    const folder = folderOf(group);
    return alone.has(folder) ? `suites/${folder}/*.check.js` : `suites/${group}`;
  });
}
