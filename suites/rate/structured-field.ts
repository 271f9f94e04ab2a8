/**
 * A parser of HTTP Structured Field Values (RFC 9651, which obsoletes RFC
 * 8941): List, Dictionary and Item, following the parsing algorithms of its
 * section 4.2. It only answers whether a field value parses, and what it
 * holds; a value that does not parse gives `undefined`, never an exception.
 */
type BareItem =
  | { type: 'integer' | 'decimal'; value: number }
  | { type: 'string' | 'token' | 'display'; value: string }
  | { type: 'bytes'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'date'; value: number };

type Params = Map<string, BareItem>;
export interface Item {
  bare: BareItem;
  params: Params;
}
interface InnerList {
  items: Item[];
  params: Params;
}
export type Member = Item | InnerList;

class ParseError extends Error {}

class Input {
  i = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i] ?? '';
  }
  take(): string {
    const c = this.peek();
    this.i++;
    return c;
  }
  sp(): void {
    while (this.peek() === ' ') this.i++;
  }
  ows(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isLcAlpha = (c: string) => c >= 'a' && c <= 'z';
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

function fail(): never {
  throw new ParseError('not a structured field');
}

function parseKey(input: Input): string {
  const first = input.peek();
  if (!isLcAlpha(first) && first !== '*') fail();
  let key = '';
  while (!input.done) {
    const c = input.peek();
    if (!isLcAlpha(c) && !isDigit(c) && !'_-.*'.includes(c)) break;
    key += input.take();
  }
  return key;
}

function parseNumber(input: Input): BareItem {
  let sign = 1;
  if (input.peek() === '-') {
    input.take();
    sign = -1;
  }
  if (!isDigit(input.peek())) fail();
  let text = '';
  let decimal = false;
  while (!input.done) {
    const c = input.peek();
    if (isDigit(c)) text += input.take();
    else if (c === '.' && !decimal) {
      if (text.length > 12) fail();
      decimal = true;
      text += input.take();
    } else break;
    if (!decimal && text.length > 15) fail();
    if (decimal && text.length > 16) fail();
  }
  if (!decimal) return { type: 'integer', value: sign * Number.parseInt(text, 10) };
  if (text.endsWith('.')) fail();
  if ((text.split('.')[1] ?? '').length > 3) fail();
  return { type: 'decimal', value: sign * Number.parseFloat(text) };
}

function parseString(input: Input): string {
  input.take(); // "
  let out = '';
  while (!input.done) {
    const c = input.take();
    if (c === '\\') {
      if (input.done) fail();
      const next = input.take();
      if (next !== '"' && next !== '\\') fail();
      out += next;
    } else if (c === '"') return out;
    else {
      const code = c.charCodeAt(0);
      if (code <= 0x1f || code >= 0x7f) fail();
      out += c;
    }
  }
  return fail();
}

function parseToken(input: Input): string {
  let out = input.take();
  while (
    !input.done &&
    (TCHAR.test(input.peek()) || input.peek() === ':' || input.peek() === '/')
  ) {
    out += input.take();
  }
  return out;
}

function parseBytes(input: Input): string {
  input.take(); // :
  let out = '';
  while (!input.done) {
    const c = input.take();
    if (c === ':') return out;
    if (!/^[A-Za-z0-9+/=]$/.test(c)) fail();
    out += c;
  }
  return fail();
}

function parseDisplayString(input: Input): string {
  if (input.take() !== '%' || input.take() !== '"') fail();
  const bytes: number[] = [];
  while (!input.done) {
    const c = input.take();
    const code = c.charCodeAt(0);
    if (code <= 0x1f || code >= 0x7f) fail();
    if (c === '%') {
      const hex = input.take() + input.take();
      if (!/^[0-9a-f]{2}$/.test(hex)) fail();
      bytes.push(Number.parseInt(hex, 16));
    } else if (c === '"') {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
      } catch {
        return fail();
      }
    } else bytes.push(code);
  }
  return fail();
}

function parseBareItem(input: Input): BareItem {
  const c = input.peek();
  if (c === '-' || isDigit(c)) return parseNumber(input);
  if (c === '"') return { type: 'string', value: parseString(input) };
  if (c === '*' || isAlpha(c)) return { type: 'token', value: parseToken(input) };
  if (c === ':') return { type: 'bytes', value: parseBytes(input) };
  if (c === '?') {
    input.take();
    const b = input.take();
    if (b !== '0' && b !== '1') fail();
    return { type: 'boolean', value: b === '1' };
  }
  if (c === '@') {
    input.take();
    const n = parseNumber(input);
    if (n.type !== 'integer') fail();
    return { type: 'date', value: n.value };
  }
  if (c === '%') return { type: 'display', value: parseDisplayString(input) };
  return fail();
}

function parseParams(input: Input): Params {
  const params: Params = new Map();
  while (input.peek() === ';') {
    input.take();
    input.sp();
    const key = parseKey(input);
    let value: BareItem = { type: 'boolean', value: true };
    if (input.peek() === '=') {
      input.take();
      value = parseBareItem(input);
    }
    params.set(key, value);
  }
  return params;
}

function parseItem(input: Input): Item {
  const bare = parseBareItem(input);
  return { bare, params: parseParams(input) };
}

function parseInnerList(input: Input): InnerList {
  input.take(); // (
  const items: Item[] = [];
  while (!input.done) {
    input.sp();
    if (input.peek() === ')') {
      input.take();
      return { items, params: parseParams(input) };
    }
    items.push(parseItem(input));
    const c = input.peek();
    if (c !== ' ' && c !== ')') fail();
  }
  return fail();
}

function parseMember(input: Input): Member {
  return input.peek() === '(' ? parseInnerList(input) : parseItem(input);
}

/** Runs a top-level parse: leading and trailing spaces are allowed, nothing else may remain. */
function top<T>(value: string, parse: (input: Input) => T): T | undefined {
  const input = new Input(value);
  try {
    input.sp();
    const out = parse(input);
    input.sp();
    return input.done ? out : undefined;
  } catch (error) {
    if (error instanceof ParseError) return undefined;
    throw error;
  }
}

function membersUntilEnd<T>(input: Input, member: (input: Input) => T): T[] {
  const out: T[] = [];
  while (!input.done) {
    out.push(member(input));
    input.ows();
    if (input.done) return out;
    if (input.take() !== ',') fail();
    input.ows();
    if (input.done) fail(); // a trailing comma
  }
  return out;
}

export function parseList(value: string): Member[] | undefined {
  return top(value, (input) => membersUntilEnd(input, parseMember));
}

export function parseDictionary(value: string): Map<string, Member> | undefined {
  return top(value, (input) => {
    const map = new Map<string, Member>();
    for (const [key, member] of membersUntilEnd(input, (i): [string, Member] => {
      const key = parseKey(i);
      if (i.peek() === '=') {
        i.take();
        return [key, parseMember(i)];
      }
      return [key, { bare: { type: 'boolean', value: true }, params: parseParams(i) }];
    })) {
      map.set(key, member);
    }
    return map;
  });
}

export function parseItemField(value: string): Item | undefined {
  return top(value, parseItem);
}
