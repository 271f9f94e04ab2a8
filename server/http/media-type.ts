/** The media type of a Content-Type header, lower-cased, and its charset if any. */
export interface MediaType {
  type: string;
  charset: string | undefined;
}

export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  const [type = '', ...params] = header.split(';');
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

/** RFC 8259 §8.1: JSON travels as UTF-8; a form we read as UTF-8 too. */
export function isUtf8Charset(charset: string | undefined): boolean {
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}
