import { tokens } from '../dialect/pointer.js';

/** A JSON Schema (OpenAPI 3.1 uses JSON Schema 2020-12), as plain data. */
export type Schema = Record<string, unknown>;

/** One member of an object: where it sits (a JSON pointer), its schema, whether it is always there. */
export interface Leaf {
  at: string;
  schema: Schema;
  required: boolean;
}

export const leaf = (at: string, schema: Schema, required = true): Leaf => ({
  at,
  schema,
  required,
});

/**
 * Moves leaves the way the dialect layer moves values (server/dialect/answers.ts):
 * every `[from, to]` is taken out first, then set at `to`, replacing whatever
 * stood at or under `to`. A leaf under `from` moves with it.
 */
export function moved(
  leaves: readonly Leaf[],
  moves: readonly (readonly [string, string])[],
): Leaf[] {
  const taken: Leaf[][] = moves.map(([from]) =>
    leaves.filter((l) => l.at === from || l.at.startsWith(`${from}/`)),
  );
  let rest = leaves.filter((l) => !taken.some((group) => group.includes(l)));
  moves.forEach(([from, to], i) => {
    const group = taken[i] ?? [];
    if (group.length === 0) return;
    rest = rest.filter(
      (l) => !(l.at === to || l.at.startsWith(`${to}/`) || to.startsWith(`${l.at}/`)),
    );
    for (const l of group) rest.push({ ...l, at: to + l.at.slice(from.length) });
  });
  return rest;
}

/**
 * The object schema the leaves make: objects on the way are made as needed,
 * required when any member under them is. No other member is refused unless
 * `closed` (request bodies, where the API document refuses unknown fields).
 */
export function objectOf(leaves: readonly Leaf[], closed = false, description?: string): Schema {
  const root = node(closed);
  for (const { at, schema, required } of leaves) {
    const path = tokens(at);
    let parent = root;
    path.forEach((token, i) => {
      const last = i === path.length - 1;
      if (required && !parent.required.includes(token)) parent.required.push(token);
      if (last) {
        parent.properties[token] = schema;
        return;
      }
      const next = parent.properties[token];
      if (isNode(next)) parent = next;
      else {
        const made = node(closed);
        parent.properties[token] = made;
        parent = made;
      }
    });
  }
  return finish(root, description);
}

interface Node {
  type: 'object';
  properties: Record<string, Schema | Node>;
  required: string[];
  additionalProperties?: false;
  [NODE]: true;
}

const NODE = Symbol('node');

function node(closed: boolean): Node {
  return {
    type: 'object',
    properties: {},
    required: [],
    ...(closed ? { additionalProperties: false as const } : {}),
    [NODE]: true,
  };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && NODE in value;
}

function finish(n: Node, description?: string): Schema {
  const properties = Object.fromEntries(
    Object.entries(n.properties).map(([k, v]) => [k, isNode(v) ? finish(v) : v]),
  );
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(n.required.length ? { required: n.required } : {}),
    ...(n.additionalProperties === false ? { additionalProperties: false } : {}),
  };
}
