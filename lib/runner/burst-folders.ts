import { activeRules } from '../../rules/index.js';

/**
 * The folders of suites/ (named after their rules' area) whose checks provoke 429s: such a
 * check spends a rate limit's whole budget at once (300 reads), as many in flight as a worker
 * has sockets. They never share a vitest file with other folders' checks (lib/runner/check-groups.ts):
 * - against a target elsewhere they run file by file, so that several of them at once are
 *   spread over the workers instead of sharing one worker's sockets in a group (with every
 *   folder grouped, through 200 ms of round-trip time, the rate folder's group took 22 s of a
 *   26 s run);
 * - against the bundled reference each folder is a group of its own, outside the groups of
 *   several folders (scripts/compile.mjs): two such folders' checks side by side in one group
 *   held ~30 MB more at once, one run in ten.
 * Its own module, with the catalogue alone behind it: scripts/compile.mjs reads it too.
 */
export function burstFolders(): ReadonlySet<string> {
  return new Set(
    activeRules.filter((rule) => rule.provokes429).map((rule) => rule.area.toLowerCase()),
  );
}
