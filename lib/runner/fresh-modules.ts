/**
 * A vitest setup file: runs in the worker before each check file. The
 * workers are reused across files (`isolate: false`: starting a fresh
 * worker and re-importing zod, undici, faker and fast-check for each file
 * cost most of a run), yet each file must get its own module state, so that
 * a helper of the suites with a counter or a cache at module level sees it
 * fresh in every file (test/engine/isolation-run.test.ts). So the suites'
 * modules are evaluated afresh per file, while the packages Node loaded
 * natively stay loaded.
 *
 * Not all of ours: the immutable definitions (the rule catalogue, response
 * schemas, generators, violation types) hold no state, and the engine
 * (lib/, but for this runner's own setup files) keeps what belongs to a file
 * on that file's FileFixture (lib/check/file-fixture.ts: its account, its
 * session, its replay book), never in module state. Evaluating them again for
 * every file was most of the reset's cost (the engine's ~45
 * modules, ~7 ms a file, 0.45 s of a run of 62 files). A module is kept when
 * it lies in one of the kept folders (kept-modules.ts) and everything it
 * imports is kept too (or is a package); every other module of ours is reset,
 * as `vi.resetModules()` would. (Not used in partner mode, where the files
 * share state on purpose: see run-suites.ts.) The compiled suite has Node
 * load the kept folders itself (check-run-options.ts): they never pass
 * through here, and this resets the rest.
 */

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

const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
if (!state) throw new Error('fresh-modules.ts runs only as a vitest setup file');
const modules = state.evaluatedModules.idToModuleMap;

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

const kept = new Map<string, boolean>();
function keep(id: string, visiting: Set<string>): boolean {
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
}

for (const [id, node] of modules) {
  node.importers.clear();
  if (VITEST.some((re) => re.test(id)) || keep(id, new Set())) continue;
  node.promise = undefined;
  node.exports = undefined;
  node.evaluated = false;
}
