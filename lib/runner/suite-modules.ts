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
const isPackage = (node: ModuleNode) =>
  !node.file.startsWith('/') || (belowRoot(node) ?? node.file).split('/').includes('node_modules');
/**
 * In a kept folder, by its path below the suite's root (a folder above the root may well be
 * called `lib`: an installed suite in /usr/lib/node_modules).
 */
const isKept = (node: ModuleNode) => {
  const below = belowRoot(node);
  return below !== undefined && inKeptFolder(below);
};

/**
 * What a module is, by its id alone: vitest's own, a package's, ours in a kept folder, or ours
 * to evaluate afresh.
 */
type ModuleKind = 'vitest' | 'package' | 'kept-folder' | 'afresh';
const kindOf = (id: string, node: ModuleNode): ModuleKind => {
  if (VITEST.some((re) => re.test(id))) return 'vitest';
  if (isPackage(node)) return 'package';
  return isKept(node) ? 'kept-folder' : 'afresh';
};
/**
 * The kinds found so far, for the worker's life: a module's kind never changes, and this
 * module, evaluated afresh for every file itself, would otherwise test the worker's ~180
 * modules' paths again at each of its 96 calls in a full run, all of them between files: 32 ms
 * of the worker's time, 16 ms with the kinds kept.
 */
const KINDS = Symbol.for('partner-ordering-conformance:module-kinds');
const worker = globalThis as { [KINDS]?: Map<string, ModuleKind> };
worker[KINDS] ??= new Map();
const kinds = worker[KINDS];
const kind = (id: string, node: ModuleNode): ModuleKind => {
  let known = kinds.get(id);
  if (known === undefined) {
    known = kindOf(id, node);
    kinds.set(id, known);
  }
  return known;
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
    const of = kind(id, node);
    if (of === 'vitest' || of === 'package') {
      kept.set(id, true);
      return true;
    }
    if (visiting.has(id)) return false; // a cycle: reset, to be safe
    visiting.add(id);
    const result = of === 'kept-folder' && [...node.imports].every((dep) => keep(dep, visiting));
    visiting.delete(id);
    kept.set(id, result);
    return result;
  };
  for (const [id, node] of modules) {
    node.importers.clear();
    if (kind(id, node) === 'vitest' || keep(id, new Set())) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
  }
}
