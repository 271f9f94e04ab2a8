import { unescapeToken } from '../evidence/json-pointer.js';

/** What the dialect probe and the draft profile say about an answer where a pointer leads nowhere. */

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
