/**
 * The line numbers of a `.env` text that dotenv would drop without a word:
 * neither blank, a comment, `NAME=value` (optionally `export NAME=value`), nor
 * a line inside a quoted value that spans lines. A dropped line is usually a
 * setting the user believes is in force (`TARGET_BASE_URL https://…`).
 */
export function malformedDotenvLines(text: string): number[] {
  const bad: number[] = [];
  let openQuote: string | undefined;
  text.split(/\r?\n/).forEach((line, index) => {
    if (openQuote !== undefined) {
      if (line.includes(openQuote)) openQuote = undefined;
      return;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const match = /^(?:export\s+)?[\w.-]+\s*=\s*(.*)$/.exec(trimmed);
    if (!match) {
      bad.push(index + 1);
      return;
    }
    const value = match[1] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote)) {
      openQuote = quote;
    }
  });
  return bad;
}
