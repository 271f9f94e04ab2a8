import { fileURLToPath } from 'node:url';
import { inKeptFolder } from './kept-modules.js';

/** What vitest's own resetModules never touches. */
const VITEST = [/\/vitest\/dist\//, /vitest-virtual-\w+\/dist/, /@vitest\/dist/, /^mock:/];

interface ModuleNode {
  id: string;
  file: string;
  imports: Set<string>;
  importers: Set<string>;
  evaluated: boolean;
  promise: unknown;
  exports: unknown;
}
interface WorkerState {
  evaluatedModules: { idToModuleMap: Map<string, ModuleNode> };
}

/**
 * A package: a file in a node_modules folder, counted below the suite's root, since an
 * installed suite itself lies in one (`node_modules/partner-ordering-conformance/`).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The module's path below the suite's root; undefined outside it. */
const belowRoot = (node: ModuleNode) =>
  node.file.startsWith(ROOT) ? node.file.slice(ROOT.length) : undefined;
const isPackage = (node: ModuleNode) => {
  if (!node.file.startsWith('/') || VITEST.some((re) => re.test(node.id))) return true;
  return (belowRoot(node) ?? node.file).split('/').includes('node_modules');
};
/**
 * In a kept folder, by its path below the suite's root (a folder above the root may well be
 * called `lib`: an installed suite in /usr/lib/node_modules).
 */
const isKept = (node: ModuleNode) => {
  const below = belowRoot(node);
  return below !== undefined && inKeptFolder(below);
};

/**
 * Sets the suites' module state afresh in this worker: every module of ours but the kept
 * ones is evaluated again when next imported. A module is kept when it lies in one of the
 * kept folders (kept-modules.ts) and everything it imports is kept too (or is a package).
 * Run before each check file (fresh-modules.ts), and after each check file a group loads
 * into one vitest file (check-group.ts).
 */
export function freshSuiteModules(): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  if (!state) throw new Error('freshSuiteModules runs only in a vitest worker');
  const modules = state.evaluatedModules.idToModuleMap;
  const kept = new Map<string, boolean>();
  const keep = (id: string, visiting: Set<string>): boolean => {
    const known = kept.get(id);
    if (known !== undefined) return known;
    const node = modules.get(id);
    if (!node) return true;
    if (isPackage(node)) {
      kept.set(id, true);
      return true;
    }
    if (visiting.has(id)) return false; // a cycle: reset, to be safe
    visiting.add(id);
    const result = isKept(node) && [...node.imports].every((dep) => keep(dep, visiting));
    visiting.delete(id);
    kept.set(id, result);
    return result;
  };
  for (const [id, node] of modules) {
    node.importers.clear();
    if (VITEST.some((re) => re.test(id)) || keep(id, new Set())) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
  }
}
