/**
 * `JSON.stringify(value, null, 2)`, character for character, in pieces: the
 * array at `path` (keys from the top, e.g. `['log', 'entries']`) one element
 * per piece, everything else whole. The value at `path` may also be any
 * iterable (a generator making the elements as they are written), written as
 * the array it yields. A report is written piece by piece
 * (write-reports.ts), so a run's peak memory holds one element's text, not the
 * whole file's: a report's text is two bytes a character as soon as one
 * character is not ASCII (a rule title's "§"), and the HAR of a full run was
 * ~12 MB of it at once.
 *
 * For plain data (what reports are): no `toJSON` is called on the objects
 * along the path, and their members are written as JSON.stringify would
 * (in order, without undefined, functions or symbols).
 */
export function* jsonPieces(
  value: unknown,
  path: readonly string[],
  indent = '',
): Generator<string> {
  const [key, ...rest] = path;
  if (key === undefined) {
    if (!isList(value)) {
      yield json(value, indent) ?? 'null';
      return;
    }
    const inner = `${indent}  `;
    let first = true;
    for (const element of value) {
      yield `${first ? '[' : ','}\n${inner}${json(element, inner) ?? 'null'}`;
      first = false;
    }
    yield first ? '[]' : `\n${indent}]`;
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !(key in value)) {
    yield json(value, indent) ?? 'null';
    return;
  }
  const members = Object.entries(value).filter(([, v]) => written(v));
  if (members.length === 0) {
    yield '{}';
    return;
  }
  const inner = `${indent}  `;
  for (let i = 0; i < members.length; i++) {
    const [name, member] = members[i] as [string, unknown];
    const head = `${i === 0 ? '{' : ','}\n${inner}${JSON.stringify(name)}: `;
    if (name === key) {
      yield head;
      yield* jsonPieces(member, rest, inner);
    } else {
      yield `${head}${json(member, inner) ?? 'null'}`;
    }
  }
  yield `\n${indent}}`;
}

/**
 * One value as JSON.stringify(value, null, 2) writes it at this depth (undefined: not JSON).
 * Written inside as many arrays as the depth has levels, so that JSON.stringify indents it
 * itself, and cut out of them: the same text as indenting its lines afterwards, without a
 * second pass over it (9 of a full run's 37 ms).
 */
function json(value: unknown, indent: string): string | undefined {
  if (!written(value)) return undefined;
  const depth = indent.length / 2;
  let wrapped = value;
  for (let level = 0; level < depth; level++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2) as string | undefined;
  if (text === undefined) return undefined;
  // Before the value, each level's `[` and line break and the next level's indentation; after
  // it, each level's line break, its indentation and its `]`.
  const before = 2 * depth + depth * (depth + 1);
  const after = 2 * depth + depth * (depth - 1);
  return text.slice(before, text.length - after);
}

function isList(value: unknown): value is Iterable<unknown> {
  return (
    Array.isArray(value) ||
    (typeof value === 'object' && value !== null && Symbol.iterator in value)
  );
}

/** Whether JSON.stringify writes an object's member holding this value. */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
