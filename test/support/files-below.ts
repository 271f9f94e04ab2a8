import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The files at any depth below `dir` whose names end with `suffix`, as absolute paths. */
export function filesBelow(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}
