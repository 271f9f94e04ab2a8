/** Client credentials from a Basic header: the Access Key ID and the Secret Key. */
export interface BasicCredentials {
  id: string;
  secret: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, then %-escapes. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replaceAll('+', ' '));
}

/**
 * §4 POST /oauth/token: `Authorization: Basic <base64(id:secret)>`. RFC 6749
 * §2.3.1 has the client form-encode id and secret before base64, so they are
 * form-decoded after it, split on the FIRST colon (RFC 7617 §2: the user-id
 * cannot hold a colon, the password can). Secrets with `+`, `%` or `:` work.
 * Returns `undefined` without a Basic header, `null` for a malformed one.
 */
export function parseBasic(header: string | undefined): BasicCredentials | null | undefined {
  if (header === undefined) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match?.[1]) return /^basic(?: |$)/i.test(header) ? null : undefined;
  try {
    const decoded = utf8.decode(Buffer.from(match[1], 'base64'));
    const colon = decoded.indexOf(':');
    if (colon <= 0) return null;
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    return secret === '' ? null : { id, secret };
  } catch {
    return null;
  }
}
