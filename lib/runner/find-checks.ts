import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A `check('ID', …)` call of a check file. */
export interface FoundCheck {
  ruleId: string;
  /** The check file, relative to `root`. */
  file: string;
}

/** A check's registration in its source: `check('IDEM-03', …)`. */
const CHECK_CALL = /\bcheck\(\s*['"`]([A-Z]+-\d{2})['"`]/g;

/**
 * The checks of the check files (`*.check.ts`, compiled `*.check.js`) at `path` (a file or a folder,
 * searched through), found by reading their source: nothing is run, no target
 * is needed. For what a run could not collect (a check file that failed to
 * load) and for the catalogue's tests. A run itself reads a test's rule from
 * its task (`task.meta.ruleId`, lib/check/register.ts), never from its name.
 */
export function findChecks(path: string, root = path): FoundCheck[] {
  const found: FoundCheck[] = [];
  for (const file of walk(path)) {
    // A compiled tree's check files end in .check.js: the call reads the same.
    if (!/\.check\.[jt]s$/.test(file)) continue;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue; // unreadable: no check found (a caller that must run it keeps it)
    }
    for (const match of source.matchAll(CHECK_CALL)) {
      found.push({ ruleId: match[1] ?? '', file: relative(root, file) });
    }
  }
  return found;
}

function* walk(path: string): Generator<string> {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return;
  }
  if (!isDirectory) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    yield* walk(join(path, entry.name));
  }
}
