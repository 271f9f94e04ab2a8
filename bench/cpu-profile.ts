import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Summarises the V8 CPU profiles a run wrote with `--cpu-prof` (one per
 * thread: the CLI's main thread and each vitest worker) into CPU time per
 * module group: whose code the run spent its time in. Self time only, so
 * the groups add up to the profiled time.
 */
interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Module groups in order of precedence: the first whose pattern matches a script's URL wins. */
const GROUPS: [string, RegExp][] = [
  ['tsx (TypeScript loader)', /\/node_modules\/(tsx|get-tsconfig|esbuild|@esbuild)\//],
  [
    'vitest, vite, rollup',
    /\/node_modules\/(vitest|@vitest|vite|rollup|@rollup|tinypool|tinyglobby|tinyrainbow|magic-string|es-module-lexer|chai|pathe|std-env|expect-type)\//,
  ],
  ['fast-check', /\/node_modules\/(fast-check|pure-rand)\//],
  ['undici', /\/node_modules\/undici\//],
  ['zod', /\/node_modules\/zod\//],
  ['faker', /\/node_modules\/@faker-js\//],
  ['allure', /\/node_modules\/(allure-vitest|allure-js-commons)\//],
  [
    'reference: fastify, better-sqlite3, pino',
    /\/node_modules\/(fastify|@fastify|better-sqlite3|pino|find-my-way|avvio|light-my-request|fast-json-stringify|ajv|fast-uri|secure-json-parse|abstract-logging|rfdc|toad-cache|process-warning)\//,
  ],
  ['other packages', /\/node_modules\//],
  ['reference (server/)', /\/server\//],
  ['suites (suites/, rules/)', /\/(suites|rules)\//],
  ['engine: reports (lib/reports/)', /\/lib\/reports\//],
  ['engine (lib/, bin/)', /\/(lib|bin)\//],
  ['Node.js: module loading', /^node:internal\/modules\/|^internal\/modules\//],
  ['Node.js internals', /^node:|^internal\//],
];
/** Groups whose time belongs to whoever called them (a package's fs call is that package's). */
const INHERITED = new Set(['Node.js internals', 'V8: compile, native code']);
/** V8's own entries: (garbage collector), (program), (idle), (root). */
const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collector',
  '(program)': 'outside JavaScript (native, waiting)',
  '(idle)': 'idle',
  '(root)': 'outside JavaScript (native, waiting)',
};

export interface ProfileSummary {
  /** Profiled threads (files read). */
  threads: number;
  /** Milliseconds of samples per group, idle excluded; largest first. */
  groups: [string, number][];
  /** Milliseconds of samples, idle excluded. */
  busyMs: number;
}

function groupOf(frame: ProfileNode['callFrame']): string {
  const special = SPECIAL[frame.functionName];
  if (special && frame.url === '') return special;
  // The suite's compiled tree (a checkout's copy under node_modules/.cache, or the package's dist/) is ours.
  const url = frame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/partner-ordering-conformance\/(compiled\/[0-9a-f]+|dist)\//, '/');
  if (url === '') return 'V8: compile, native code';
  for (const [name, pattern] of GROUPS) if (pattern.test(url)) return name;
  return 'other';
}

/** Every `.cpuprofile` in dir, summed by group. */
export function summariseProfiles(dir: string): ProfileSummary {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const totals = new Map<string, number>();
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const groupById = owners(profile.nodes);
    profile.samples.forEach((id, index) => {
      // A sample's delta is the time since the previous sample: it belongs to this sample's frame.
      const ms = (profile.timeDeltas[index] ?? 0) / 1000;
      const group = groupById.get(id) ?? 'other';
      totals.set(group, (totals.get(group) ?? 0) + ms);
    });
  }
  totals.delete('idle');
  // Samples with no JavaScript on the stack are mostly a thread waiting on its event loop.
  totals.delete('outside JavaScript (native, waiting)');
  const groups = [...totals].sort((a, b) => b[1] - a[1]);
  return { threads: files.length, groups, busyMs: groups.reduce((sum, [, ms]) => sum + ms, 0) };
}

/** Each node's group: its own, or for Node's internals and V8's builtins, its caller's. */
function owners(nodes: readonly ProfileNode[]): Map<number, string> {
  const parent = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const owner = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const own = node ? groupOf(node.callFrame) : 'other';
    const up = parent.get(id);
    let group = own;
    if (INHERITED.has(own) && up !== undefined) {
      const inherited = resolve(up);
      if (!INHERITED.has(inherited) && !inherited.startsWith('outside')) group = inherited;
    }
    owner.set(id, group);
    return group;
  };
  for (const node of nodes) resolve(node.id);
  return owner;
}
