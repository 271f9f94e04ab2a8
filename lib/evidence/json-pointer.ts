/**
 * JSON Pointers (RFC 6901) into parsed bodies: the one reading and writing of
 * the places a dialect names (order bodies, answers, list envelopes), for the
 * checks, the dialect probe, the draft profile and replays alike.
 */

import { unescapeToken } from './json-pointer.mjs';

export { unescapeToken, valueAt } from './json-pointer.mjs';

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
