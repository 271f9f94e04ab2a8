/**
 * A copy of `text` that shares no memory with the string it was cut from.
 * V8 answers `slice` (and `substring`, a regular expression's match) of a long
 * string with a view into it: 4,000 characters kept from a 2 MiB answer keep
 * the 2 MiB alive for as long as they live. Whatever outlives the request that
 * read it (evidence, a violation's received value, a message) is copied.
 */
function detached(text: string): string {
  // Views are made only from 13 characters on; UTF-16 both ways keeps every code unit as it was.
  return text.length < 13 ? text : Buffer.from(text, 'utf16le').toString('utf16le');
}

/** The first `max` characters of `text`, detached; `text` itself when it is that short. */
export function headOf(text: string, max: number): string {
  return text.length <= max ? text : detached(text.slice(0, max));
}
