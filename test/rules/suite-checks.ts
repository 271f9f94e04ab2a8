import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface FoundCheck {
  ruleId: string;
  file: string;
}

/** Every `check('ID', …)` call in suites/, found by reading the files (no target needed). */
export function findChecks(root: string): FoundCheck[] {
  const found: FoundCheck[] = [];
  for (const file of walk(join(root, 'suites'))) {
    if (!file.endsWith('.check.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bcheck\(\s*['"`]([A-Z]+-\d{2})['"`]/g)) {
      found.push({ ruleId: match[1]!, file: relative(root, file) });
    }
  }
  return found;
}

function* walk(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
