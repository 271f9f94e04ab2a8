import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILED } from '../config/package-root.js';

/**
 * Check groups (check-group.ts): one module per folder of the bundled check files, written
 * beside them when the suite is compiled (scripts/compile.mjs), loading the folder's check
 * files in name order. A compiled tree has them; a run from the TypeScript sources does not.
 */
const GROUP_SUFFIX = '.group.js';

/**
 * The glob of the bundled check files' groups (relative to `root`, as vitest's include), when
 * this tree has them; undefined: run the check files themselves.
 */
export function checkGroupsGlob(root: string): string | undefined {
  if (!COMPILED) return undefined;
  let found = false;
  try {
    found = readdirSync(join(root, 'suites'), { recursive: true }).some((name) =>
      String(name).endsWith(GROUP_SUFFIX),
    );
  } catch {
    return undefined;
  }
  return found ? `suites/**/*${GROUP_SUFFIX}` : undefined;
}
