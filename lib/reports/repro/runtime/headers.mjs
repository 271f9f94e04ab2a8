// Answer headers as the suite reads them: lower-case names, a repeated header's values joined
// with ", " (set-cookie's with line breaks), the first name of each kept as it came.

/** `pairs`: [name, value] in the order they came. */
export function headersFrom(pairs) {
  const headers = {};
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    if (!Object.hasOwn(headers, name)) headers[name] = value;
    else headers[name] = `${headers[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return headers;
}
