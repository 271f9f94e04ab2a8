import type { WireResponse } from './http-client.js';
import type { HttpResponse } from './types.js';

/** Wraps a wire response for checks; the body is parsed as JSON whatever the media type claims. */
export function toHttpResponse(wire: WireResponse): HttpResponse {
  return {
    requestPath: wire.requestPath,
    status: wire.status,
    headers: wire.headers,
    header: (name: string) => wire.headers[name.toLowerCase()],
    text: wire.text,
    json: parseJson(wire.text),
    exchange: wire.exchange,
    durationMs: wire.durationMs,
  };
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
