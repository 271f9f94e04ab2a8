import { readJsonText, tooDeepWords } from '../evidence/json-text.js';
import { OVER_CAP_WORDS, type WireResponse } from './http-client.js';
import type { HttpResponse } from './types.js';

/**
 * Wraps a wire response for checks; the body is parsed as JSON whatever the
 * media type claims. A body the suite does not read (past the size cap, or
 * nested past the depth bound) has no `json`, and `unreadable` says why in
 * the words a violation about it uses.
 */
export function toHttpResponse(wire: WireResponse): HttpResponse {
  const read = wire.over ? undefined : (wire.read ?? readJsonText(wire.text));
  const unreadable = wire.over
    ? OVER_CAP_WORDS
    : read?.kind === 'too_deep'
      ? tooDeepWords(read.depth)
      : undefined;
  return {
    requestPath: wire.requestPath,
    status: wire.status,
    headers: wire.headers,
    header: (name: string) => wire.headers[name.toLowerCase()],
    text: wire.text,
    json: read?.kind === 'json' ? read.value : undefined,
    ...(unreadable ? { unreadable } : {}),
    exchange: wire.exchange,
    durationMs: wire.durationMs,
  };
}
