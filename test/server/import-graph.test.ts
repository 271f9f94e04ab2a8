import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../support/files-below.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'server');
const LIB = join(ROOT, 'lib');

// Static imports and re-exports (type-only ones included: they tie the files as much), and dynamic imports.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

/** Each file of `dir` (server/ unless said) and the files of `dir` it imports. */
function importGraph(dir = SERVER): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesBelow(dir, '.ts')) {
    // Comments may show an import as an example: they import nothing.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')))
      .filter((target) => target.startsWith(dir));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, indexOf.get(next) ?? 0));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(relative(ROOT, member).replaceAll('\\', '/'));
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
        found.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe('server/ and lib/ import one way, with no circle', () => {
  it('finds the imports it walks (a broken walker would find no circle anywhere)', () => {
    const graph = importGraph();
    const app = graph.get(join(SERVER, 'app.ts')) ?? [];
    expect(app).toContain(join(SERVER, 'behaviour.ts'));
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });

  it('has no import circle in server/', () => {
    expect(circles(importGraph())).toEqual([]);
  });

  it('has no import circle in the engine (lib/) either', () => {
    expect(circles(importGraph(LIB))).toEqual([]);
  });
});
