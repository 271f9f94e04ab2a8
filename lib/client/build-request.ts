import type { WireRequest } from './http-client.js';
import type { RequestSpec } from './types.js';

/**
 * Turns a check's RequestSpec into exactly the bytes to send. Credentials are
 * resolved before this (see `resolveAuth`): here `authorization` is just a header.
 */
export function buildRequest(
  spec: RequestSpec,
  bases: { origin: string; apiBaseUrl: string },
  authorization: string | undefined,
): WireRequest {
  const base = spec.raw ? bases.origin : bases.apiBaseUrl;
  const url = new URL(base + spec.path);
  // Appended to the query a profile's path may carry (`/shipments?order_id={id}`),
  // leaving that query's bytes as the path template made them.
  const extra = new URLSearchParams(spec.query ?? {}).toString();
  if (extra) url.search = url.search ? `${url.search}&${extra}` : extra;

  const headers: Record<string, string | string[]> = {
    accept: 'application/json, application/problem+json',
  };
  let body: string | Uint8Array | undefined;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers['content-type'] = 'application/json';
  } else if (spec.form !== undefined) {
    body = new URLSearchParams(spec.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (spec.body !== undefined) {
    body = spec.body;
  }
  if (authorization !== undefined) headers.authorization = authorization;
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    const lower = name.toLowerCase();
    if (value === null) delete headers[lower];
    else headers[lower] = value;
  }
  return {
    method: spec.method.toUpperCase(),
    url: url.toString(),
    headers,
    ...(body === undefined ? {} : { body }),
    channel: 'api',
  };
}

export function basicAuthorization(accessKeyId: string, secretKey: string): string {
  // RFC 6749 §2.3.1: form-encode each part before base64, so `:`, `+`, `%` survive.
  const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(accessKeyId)}:${encode(secretKey)}`).toString('base64')}`;
}
