/**
 * JSON Pointers (RFC 6901) into parsed bodies: the one reading and writing of
 * the places a dialect names (order bodies, answers, list envelopes), for the
 * checks, the dialect probe, the draft profile and replays alike.
 */

/**
 * The value at a JSON pointer; undefined when any step is missing. `''` is the
 * whole body. Only a value's own members count: `/constructor` of an answer is
 * absent, never Object's.
 */
export function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    const token = unescapeToken(raw);
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A pointer from its tokens: `["limits", "max"]` gives `/limits/max`. */
export function pointerOf(tokens: readonly (string | number | symbol)[]): string {
  return tokens.map((t) => `/${escapeToken(String(t))}`).join('');
}

/** Sets the value at a JSON pointer, making the objects on the way. */
export function put(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1).map(unescapeToken);
  const last = tokens.pop();
  if (last === undefined) throw new Error(`pointer "${pointer}" names no field`);
  let node = target;
  for (const token of tokens) {
    const next = node[token];
    if (typeof next !== 'object' || next === null) node[token] = {};
    node = node[token] as Record<string, unknown>;
  }
  node[last] = value;
}
