/**
 * Text from the network made safe to print on a terminal (and in any plain
 * text a person reads: a log, a Markdown code block). Terminals act on
 * control characters: ESC starts sequences that move the cursor, erase
 * lines, set the window title or hide text; a carriage return rewrites the
 * line; C1 controls (U+0080–U+009F) are escapes of their own on some
 * terminals; bidirectional overrides reorder what is shown. Each of them is
 * replaced by a visible escape (`\x1b`, `\r`, `\u202e`), so a target's
 * `code` can neither erase a counts line nor forge one.
 *
 * Used by the CLI's Terminal and progress line, and by summary.md's code
 * blocks; a reproduction's own output can use it too.
 */

export interface TerminalTextOptions {
  /** Line feeds kept as they are (the suite's own multi-line text); default: made visible too. */
  keepNewlines?: boolean;
}

/** Every character a terminal or a renderer may act on instead of showing (line feed apart). */
const CONTROLS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[\\n${CONTROLS}]`, 'g');
const CONTROL_BUT_NEWLINE = new RegExp(`[${CONTROLS}]`, 'g');
const ANY = new RegExp(`[\\n${CONTROLS}]`);

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\x1b' };

export function escapeTerminal(text: string, options: TerminalTextOptions = {}): string {
  if (!ANY.test(text)) return text;
  return text.replace(options.keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, visible);
}

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}
