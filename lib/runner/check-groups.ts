import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { activeRules } from '../../rules/index.js';
import { COMPILED } from '../config/package-root.js';

/**
 * Check groups (check-group.ts): one module per folder of the bundled check files, written
 * beside them when the suite is compiled (scripts/compile.mjs), loading the folder's check
 * files in name order: a run one file at a time runs these (several at a time runs lanes:
 * check-lanes.ts). A compiled tree has them; a run from the TypeScript sources does not.
 */
const GROUP_SUFFIX = '.group.js';

/**
 * What vitest runs of the bundled check files (its include, relative to `root`) when this tree
 * has groups: each folder's group. Undefined: no groups here, run the check files themselves.
 */
export function checkGroupsInclude(root: string): string[] | undefined {
  if (!COMPILED) return undefined;
  let groups: string[];
  try {
    groups = readdirSync(join(root, 'suites'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(GROUP_SUFFIX))
      .map((name) => `suites/${name.split(/[\\/]/).join('/')}`)
      .sort();
  } catch {
    return undefined;
  }
  return groups.length === 0 ? undefined : groups;
}

/**
 * The folders (named after their rules' area) whose checks provoke 429s: such a check spends a
 * rate limit's whole budget at once (300 reads), as many in flight as a worker has sockets.
 * Against a target elsewhere their files are spread over the lanes (lib/plan/lanes.ts), so that
 * few of them share one worker's sockets (with every folder a group of its own, through 200 ms
 * of round-trip time, the rate folder's group took 22 s of a 26 s run).
 */
export function burstFolders(): ReadonlySet<string> {
  return new Set(
    activeRules.filter((rule) => rule.provokes429).map((rule) => rule.area.toLowerCase()),
  );
}
