// The one reading of a JSON Pointer (RFC 6901) into a parsed body. Plain JavaScript with no
// imports: the checks read through it (json-pointer.ts), and so does every standalone
// reproduction, which carries this file as it is (lib/reports/repro/runtime-text.ts).

/**
 * The value at a JSON pointer; undefined when any step is missing. `''` is the
 * whole body. Only a value's own members count: `/constructor` of an answer is
 * absent, never Object's; an array is entered by an index only.
 */
export function valueAt(body, pointer) {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    node = ownMember(node, unescapeToken(raw));
    if (node === undefined) return undefined;
  }
  return node;
}

export function unescapeToken(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function ownMember(node, name) {
  if (typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(name) ? node[Number(name)] : undefined;
  return Object.hasOwn(node, name) ? node[name] : undefined;
}
