/**
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1): `scheme [ token68 /
 * #auth-param ]`, several per field value, separated by commas. The parser
 * answers `undefined` for a value that is not well-formed, so a check can say
 * so instead of guessing.
 */
export interface Challenge {
  /** As sent; compare case-insensitively (RFC 9110 §11.1). */
  scheme: string;
  /** Parameter names lower-cased (they are case-insensitive); quoted values unescaped. */
  params: Record<string, string>;
  token68?: string;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(?:,|$))/;

export function parseChallenges(value: string): Challenge[] | undefined {
  const s = value;
  let i = 0;
  const isWs = (c: string | undefined) => c === ' ' || c === '\t';
  const ws = () => {
    while (isWs(s[i])) i++;
  };
  const separators = () => {
    while (s[i] === ',' || isWs(s[i])) i++;
  };
  const token = () => {
    const start = i;
    while (i < s.length && TCHAR.test(s[i] ?? '')) i++;
    return s.slice(start, i);
  };
  const quoted = (): string | undefined => {
    i++; // the opening quote
    let out = '';
    while (i < s.length) {
      const c = s[i] ?? '';
      if (c === '\\') {
        out += s[i + 1] ?? '';
        i += 2;
      } else if (c === '"') {
        i++;
        return out;
      } else {
        out += c;
        i++;
      }
    }
    return undefined;
  };
  /** After a comma: does an auth-param (`name = …`) follow, rather than a new challenge? */
  const paramAhead = () => {
    const save = i;
    const name = token();
    ws();
    const ahead = name.length > 0 && s[i] === '=';
    i = save;
    return ahead;
  };

  const out: Challenge[] = [];
  separators();
  while (i < s.length) {
    const scheme = token();
    if (!scheme) return undefined;
    const challenge: Challenge = { scheme, params: {} };
    out.push(challenge);
    const spaced = isWs(s[i]);
    ws();
    if (i >= s.length) break;
    if (s[i] === ',') {
      separators();
      continue;
    }
    if (!spaced) return undefined;
    const t68 = TOKEN68.exec(s.slice(i));
    if (t68) {
      challenge.token68 = t68[0];
      i += t68[0].length;
      ws();
      separators();
      continue;
    }
    for (;;) {
      const name = token();
      if (!name) return undefined;
      ws();
      if (s[i] !== '=') return undefined;
      i++;
      ws();
      let param: string | undefined;
      if (s[i] === '"') param = quoted();
      else {
        param = token();
        if (param === '') param = undefined;
      }
      if (param === undefined) return undefined;
      challenge.params[name.toLowerCase()] = param;
      ws();
      if (i >= s.length) break;
      if (s[i] !== ',') return undefined;
      separators();
      if (i >= s.length || !paramAhead()) break;
    }
  }
  return out;
}

/** The first challenge of a scheme (case-insensitive), if the header is well-formed and has one. */
export function challengeOf(header: string | undefined, scheme: string): Challenge | undefined {
  if (header === undefined) return undefined;
  return parseChallenges(header)?.find((c) => c.scheme.toLowerCase() === scheme.toLowerCase());
}
