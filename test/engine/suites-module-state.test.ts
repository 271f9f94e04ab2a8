import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { inKeptFolder } from '../../lib/runner/kept-modules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Constructors whose instance at module level is state every check file of a worker would share. */
const STATEFUL = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'WeakRef']);

/**
 * The declarations at a module's top level that would hold state between the check files of a
 * worker: a `let` or `var`, or a `const` made an empty collection to fill (a Map or Set made with
 * nothing in it, an empty array or object); a table made with its contents is a constant. Named
 * with their line.
 */
function moduleState(text: string): string[] {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const mutable = (list.flags & ts.NodeFlags.Const) === 0;
    for (const declaration of list.declarations) {
      const init = declaration.initializer;
      const collection =
        init !== undefined &&
        ((ts.isNewExpression(init) &&
          STATEFUL.has(init.expression.getText(source)) &&
          (init.arguments?.length ?? 0) === 0) ||
          (ts.isArrayLiteralExpression(init) && init.elements.length === 0) ||
          (ts.isObjectLiteralExpression(init) && init.properties.length === 0));
      if (!mutable && !collection) continue;
      const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
      found.push(`${declaration.name.getText(source)} (line ${line})`);
    }
  }
  return found;
}

describe('the bundled suites, evaluated once per worker (lib/runner/kept-modules.ts)', () => {
  // A check file runs once in a worker, so its own module state is its file's; the modules its
  // check files share (helpers, commands, schemas, generators) must hold none, or a check file
  // would see what the one before it (or beside it, in a lane) left there.
  const shared = globSync('suites/**/*.ts', { cwd: ROOT }).filter(
    (path) => !path.endsWith('.check.ts'),
  );

  it('are kept: Node loads each once in a worker', () => {
    expect(shared.length).toBeGreaterThan(50);
    for (const path of [...shared, 'suites/order/generated.check.ts'])
      expect(inKeptFolder(path), path).toBe(true);
  });

  it('share no module state between the check files of a worker', () => {
    const stateful = shared
      .map((path) => ({ path, state: moduleState(readFileSync(`${ROOT}${path}`, 'utf8')) }))
      .filter(({ state }) => state.length > 0);
    expect(stateful).toEqual([]);
  });

  it('would be found holding state where a module does', () => {
    expect(moduleState('let count = 0;')).toEqual(['count (line 1)']);
    expect(moduleState('\nexport const seen = new Map<string, number>();')).toEqual([
      'seen (line 2)',
    ]);
    expect(moduleState('export const made: string[] = [];')).toEqual(['made (line 1)']);
    expect(moduleState('var cache = {};')).toEqual(['cache (line 1)']);
    expect(moduleState("export const SCOPES = ['a', 'b'] as const;")).toEqual([]);
    expect(moduleState('const LIMIT = { max: 3 };')).toEqual([]);
    expect(moduleState("const KNOWN = new Set(['id', 'items']);")).toEqual([]);
    expect(moduleState('export function f() { let x = 1; return x; }')).toEqual([]);
  });
});
