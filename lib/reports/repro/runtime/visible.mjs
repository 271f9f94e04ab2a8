// Text from the network as a terminal shows it: control characters (C0, DEL, C1), bidirectional
// and invisible format characters written as escapes, never acted on (a target's `code` cannot
// move the cursor, retitle the window or hide a line). Every line a reproduction prints goes
// through `visible`.

const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** `text` with every control or format character as `\xNN` / `\u{NNNN}`. */
export function visible(text) {
  return String(text).replace(CONTROL, (c) => {
    const code = c.codePointAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** A value found in an answer, for a message: JSON, at most `max` characters, `absent` when there is none. */
export function shown(value, max = 200) {
  if (value === undefined) return 'absent';
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return '(a value too deeply nested to show)';
  }
  return visible(text.length > max ? `${text.slice(0, max)}…` : text);
}
