import { z } from 'zod';
import { unescapeToken } from '../../lib/check/index.js';

interface Tree {
  schema?: z.ZodType;
  children: Map<string, Tree>;
}

/**
 * A zod object schema that wants each schema at its JSON pointer: how the
 * suite states an answer's shape in a dialect that names its fields itself
 * (`[[dialect.answers.order.id, z.string()], ...]`). Other members are let
 * through, as in the reference schemas.
 */
export function objectAt(entries: readonly (readonly [string, z.ZodType])[]): z.ZodType {
  const root: Tree = { children: new Map() };
  for (const [pointer, schema] of entries) {
    let node = root;
    for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
      let next = node.children.get(token);
      if (!next) {
        next = { children: new Map() };
        node.children.set(token, next);
      }
      node = next;
    }
    node.schema = schema;
  }
  return build(root);
}

function build(node: Tree): z.ZodType {
  if (node.schema) return node.schema;
  return z.looseObject(
    Object.fromEntries([...node.children].map(([name, child]) => [name, build(child)])),
  );
}
