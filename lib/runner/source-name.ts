import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { COMPILED, SOURCE_ROOT } from '../config/package-root.js';

/**
 * How a report names a check file, whichever copy of the suite ran it: the
 * source's name, relative to the suite's root. A compiled tree's own files
 * (`suites/token/token.check.js`) are named by their source
 * (`suites/token/token.check.ts`); files outside the tree (a user's
 * `--suites`) relative to the package's own folder, as from the sources.
 */
export function reportedName(root: string, moduleId: string): string {
  const inTree = relative(root, moduleId);
  if (!inTree.startsWith('..') && !isAbsolute(inTree))
    return COMPILED ? inTree.replace(/\.js$/, '.ts') : inTree;
  return relative(SOURCE_ROOT, moduleId);
}

/** The file a reported name stands for (reportedName's inverse), to read it; undefined when none exists. */
export function namedFile(root: string, name: string): string | undefined {
  const candidates = [join(root, name), join(root, name.replace(/\.ts$/, '.js'))];
  if (!isAbsolute(name)) candidates.push(join(SOURCE_ROOT, name));
  return candidates.find((path) => existsSync(path));
}
