/**
 * JSON from the network, read with a bound on nesting. A target may answer
 * 100,000 levels of brackets: `JSON.parse` copes, but everything after it that
 * walks a value (redaction, zod, JSON.stringify, reports) recurses and would
 * overflow the suite's own stack. Deeper than MAX_JSON_DEPTH the text is not
 * parsed at all: the answer is judged as what it is, JSON the suite does not
 * read, in words a reader of the report understands.
 */

/** No answer of the API nests anywhere near this; every walker of the suite copes with it. */
const MAX_JSON_DEPTH = 100;

export type JsonText =
  | { kind: 'json'; value: unknown }
  /** Empty, or not JSON. */
  | { kind: 'none' }
  | { kind: 'too_deep'; depth: number };

export function readJsonText(text: string | undefined): JsonText {
  if (!text) return { kind: 'none' };
  const depth = nestingDepth(text, MAX_JSON_DEPTH + 1);
  if (depth > MAX_JSON_DEPTH) return { kind: 'too_deep', depth };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'none' };
  }
}

/** The parsed value, or undefined when the text is empty, not JSON or nested too deep. */
export function jsonValue(text: string | undefined): unknown {
  const read = readJsonText(text);
  return read.kind === 'json' ? read.value : undefined;
}

/**
 * An object or array body, parsed within the nesting bound; else undefined.
 * `read`: the body as readJsonText already read it (one parse an answer).
 */
export function jsonContainer(text: string | undefined, read?: JsonText): unknown {
  if (read) return read.kind === 'json' && isContainer(read.value) ? read.value : undefined;
  if (!text) return undefined;
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  return jsonValue(text);
}

/** JSON parses to an object or array exactly when its text starts, past blanks, with `{` or `[`. */
function isContainer(value: unknown): boolean {
  return value !== null && typeof value === 'object';
}

/** Why a body nested too deep was not read, in a report's words. */
export function tooDeepWords(depth: number): string {
  return `JSON nested deeper than ${MAX_JSON_DEPTH} levels${depth > MAX_JSON_DEPTH + 1 ? ` (${depth})` : ''}, which the suite does not read`;
}

/**
 * The deepest nesting of brackets and braces outside JSON strings (an upper
 * bound for text that is not JSON), counted without recursion; stops counting
 * once `stopAt` is reached.
 */
export function nestingDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      deepest = Math.max(deepest, ++depth);
      if (deepest >= stopAt) return deepest;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}
