// The suite as JavaScript: lib/, rules/, suites/ and server/ compiled file by file with esbuild (types
// stripped, nothing bundled, the folder layout kept, so the check files vitest runs and the server the
// CLI starts resolve as in the sources), beside what they read at run time (config/, the API document,
// a package.json). Two uses:
//   - `npm pack` (prepack): `node scripts/compile.mjs dist` writes the tree the package ships;
//   - a checkout (bin/conformance.js): compiledCopy() answers a tree for the current sources, built
//     once per content hash under node_modules/.cache, so no run transforms TypeScript at start.
// Plain JavaScript: it runs before any TypeScript can.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Compiled folders. */
const CODE = ['lib', 'rules', 'suites', 'server'];
/** Copied as they are: what the code reads at run time below its root (PACKAGE_ROOT). */
const DATA = [
  'config',
  'docs/partner-ordering-api.md',
  // Plain JavaScript the code imports and every standalone reproduction carries as text.
  'lib/violations/condition.mjs',
  'lib/evidence/json-pointer.mjs',
  'lib/reports/repro/runtime',
  // How the checks are shared out among the workers of a run of several files at a time.
  'suites/lane-weights.json',
];
/** A tree's own record: what it was built from. */
const STAMP = 'compiled.json';
/**
 * A checkout's compiled copy keeps vitest's module cache of its checks inside itself (named in its
 * stamp; lib/config/package-root.ts): the cache goes when the copy is pruned. Kept in the
 * temporary folder instead, one per copy, every change of the sources left one behind there for
 * good (a day's work: 267 folders, 1.8 GB).
 */
const MODULE_CACHE = 'module-cache';
/** Trees of older sources are removed after this long unused (a run may still use one). */
const STALE_MS = 24 * 60 * 60 * 1000;

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function codeFiles(root) {
  return CODE.flatMap((dir) => walk(join(root, dir))).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'),
  );
}

/** A hash of everything a tree is built from: the sources, the data, package.json and this script. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  const files = [
    ...codeFiles(root),
    ...DATA.flatMap((path) =>
      statSync(join(root, path)).isDirectory() ? walk(join(root, path)) : [join(root, path)],
    ),
    join(root, 'package.json'),
    fileURLToPath(import.meta.url),
  ].sort();
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the tree into outDir (replaced). `sourceRoot`: the package's own folder as seen
 * from the tree, recorded so that the suite names files and its `bin` as in the sources;
 * `record`: more of the stamp.
 */
export async function compileTree(root, outDir, hash = sourceHash(root), record = {}) {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: codeFiles(root),
    outdir: outDir,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    bundle: false,
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.json'),
  });
  writeCheckGroups(outDir);
  writeCheckLanes(outDir);
  for (const path of DATA) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    cpSync(join(root, path), join(outDir, path), { recursive: true });
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // ESM scope for the tree (under node_modules/.cache, Node would not look further up), and the version.
  writeFileSync(
    join(outDir, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module' }, null, 2)}\n`,
  );
  writeFileSync(
    join(outDir, STAMP),
    `${JSON.stringify({ sourceHash: hash, sourceRoot: relative(outDir, root) || '.', ...record }, null, 2)}\n`,
  );
  return outDir;
}

/**
 * Beside each folder's check files, one module that loads them all (`<folder>.group.js`,
 * lib/runner/check-group.ts): a run going one file at a time runs these (lib/runner/check-groups.ts).
 * The name and the call are that module's contract; the check files in name order.
 */
function writeCheckGroups(outDir) {
  const suites = join(outDir, 'suites');
  const folders = new Map();
  for (const file of walk(suites)
    .filter((path) => path.endsWith('.check.js'))
    .sort()) {
    const folder = dirname(file);
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  for (const [folder, files] of folders) {
    // Import specifiers: `/` whatever the platform's separator.
    const loader = relative(folder, join(outDir, 'lib/runner/check-group.js')).split(sep).join('/');
    const names = files.map((file) => `./${relative(folder, file).split(sep).join('/')}`);
    writeFileSync(
      join(folder, `${basename(folder)}${GROUP_SUFFIX}`),
      [
        '// Written by scripts/compile.mjs: the check files of this folder, loaded as one vitest file.',
        `import { loadCheckGroup } from ${JSON.stringify(loader)};`,
        `await loadCheckGroup(import.meta.url, ${JSON.stringify(names)}, (file) => import(file));`,
        '',
      ].join('\n'),
    );
  }
}
/** A group module's name ends so: lib/runner/check-groups.ts looks for it. */
const GROUP_SUFFIX = '.group.js';

/**
 * The lane modules (`suites/lanes/lane-01.lane.js` and on, lib/runner/check-lanes.ts): one per
 * worker of a run of several files at a time, as many as `--concurrency` allows at most. Each
 * loads the check files the run's plan gives its lane; the names and the call are that
 * module's contract.
 */
function writeCheckLanes(outDir) {
  const lanes = join(outDir, 'suites', 'lanes');
  mkdirSync(lanes, { recursive: true });
  for (let lane = 1; lane <= LANE_MODULES; lane++) {
    writeFileSync(
      join(lanes, `lane-${String(lane).padStart(2, '0')}.lane.js`),
      [
        `// Written by scripts/compile.mjs: lane ${lane} of a run of several check files at a time.`,
        'import { loadCheckLane } from "../../lib/runner/check-group.js";',
        `await loadCheckLane(import.meta.url, ${lane}, (file) => import(file));`,
        '',
      ].join('\n'),
    );
  }
}
/** As many as `--concurrency` allows at most (lib/runner/check-lanes.ts LANE_MODULES). */
const LANE_MODULES = 32;

/**
 * The compiled tree of a checkout's current sources: built on first use after a change
 * (about a second), then reused. Built in a private folder and renamed into place, so
 * runs started side by side never see half a tree.
 */
export async function compiledCopy(root) {
  const hash = sourceHash(root);
  const cache = join(root, 'node_modules', '.cache', 'partner-ordering-conformance', 'compiled');
  const tree = join(cache, hash);
  if (existsSync(join(tree, STAMP))) return tree;
  const building = join(cache, `.building-${hash}-${process.pid}`);
  mkdirSync(cache, { recursive: true });
  await compileTree(root, building, hash, { moduleCache: MODULE_CACHE });
  try {
    renameSync(building, tree);
  } catch {
    // Another run built the same sources first: theirs is as good.
    rmSync(building, { recursive: true, force: true });
  }
  prune(cache, hash);
  return tree;
}

function prune(cache, keep) {
  const now = Date.now();
  for (const name of readdirSync(cache)) {
    if (name === keep) continue;
    const path = join(cache, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another run.
    }
  }
}

// `node scripts/compile.mjs OUT_DIR` (npm's `prepare`: at `npm pack`, at an install from the
// repository, and at a clone's own `npm install`): the tree the package ships. --if-esbuild: a clone
// installed without devDependencies skips it (its runs then go through tsx; see bin/conformance.js).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const args = process.argv.slice(2);
  const out = resolve(root, args.find((arg) => !arg.startsWith('--')) ?? 'dist');
  if (
    args.includes('--if-esbuild') &&
    !(await import('esbuild').then(
      () => true,
      () => false,
    ))
  ) {
    process.stderr.write(
      'compile: esbuild is not installed (no devDependencies): dist/ not built\n',
    );
    process.exit(0);
  }
  const started = performance.now();
  await compileTree(root, out);
  process.stderr.write(
    `compile: ${relative(root, out) || out} in ${Math.round(performance.now() - started)} ms\n`,
  );
}
