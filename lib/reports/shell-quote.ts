/**
 * One word for a POSIX shell: left bare when it holds only characters no
 * shell reads specially, else single-quoted (a `'` inside closes, escapes and
 * reopens the quote). Never used on a secret: those travel as `"$VARIABLE"`.
 */
export function shellWord(value: string): string {
  if (value !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
