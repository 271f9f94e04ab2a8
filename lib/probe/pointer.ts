/** Reading answers at JSON pointers (RFC 6901), for the dialect probe and the draft profile. */

/** The value at `pointer` in `body`, or undefined when any step is missing. */
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

/**
 * What the answer shows where a pointer leads nowhere: the members of the
 * deepest object on the pointer's way (`members at /limits: max_value, daily`),
 * so the user sees the names the target chose.
 */
export function membersNear(body: unknown, pointer: string): string {
  const tokens = pointer.split('/').slice(1);
  let node = body;
  let at = '';
  for (const raw of tokens) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) break;
    const token = unescapeToken(raw);
    const next = (node as Record<string, unknown>)[token];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) break;
    node = next;
    at += `/${raw}`;
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    return `its body is ${node === undefined ? 'empty or not JSON' : Array.isArray(node) ? 'an array' : `${JSON.stringify(node)}`.slice(0, 80)}`;
  }
  const keys = Object.keys(node);
  const shown = keys.slice(0, 20).join(', ');
  return `${at ? `members at ${at}` : 'its top-level members'}: ${
    keys.length === 0 ? 'none' : `${shown}${keys.length > 20 ? `, … (${keys.length} in all)` : ''}`
  }`;
}

/** A pointer from its tokens: `["limits", "max"]` gives `/limits/max`. */
export function pointerOf(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
