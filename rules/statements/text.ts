/**
 * How the statement index and the rule quotes read the two source documents
 * (docs/partner-ordering-api.md, docs/target-contract.md): text compared up to
 * white space and Markdown marks, sections by number, and the mechanical units
 * (sentences of prose and bullets, table rows) a test holds the index to.
 * Pure functions of the Markdown: reading the files is the caller's job.
 */

/**
 * Text as a quote is compared: Markdown's code marks (backticks) and emphasis
 * (`**strong**`, `*em*`) dropped, every run of white space (line breaks and
 * table padding included) one space. Underscores are left alone: they are part
 * of codes such as `token_expired`, never emphasis in these documents.
 */
export function normalise(text: string): string {
  return text
    .replace(/`/g, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/(^|[^\w*])\*(\S(?:.*?\S)?)\*(?=[^\w*]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The top-level sections of a Markdown document by number: `## 4. Endpoints`
 * runs up to the next `## ` heading, its `###` subsections included.
 */
export function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  const close = () => {
    if (current !== undefined) sections.set(current, normalise(lines.join('\n')));
  };
  for (const line of markdown.split('\n')) {
    const heading = /^## (\d+)\.\s/.exec(line);
    if (heading || line.startsWith('## ')) {
      close();
      current = heading?.[1];
      lines = [line];
    } else {
      lines.push(line);
    }
  }
  close();
  return sections;
}

/** One mechanical unit of a document: a sentence of prose or of a bullet, or a table row. */
export interface Unit {
  /** Top-level section number; "0" is the text before the first numbered section. */
  section: string;
  kind: 'sentence' | 'row';
  /** Normalised (see `normalise`); a row keeps its cell separators: `| 401 | unauthorized | … |`. */
  text: string;
}

/**
 * A sentence ends at `.`, `!` or `?` followed by white space and a capital,
 * a digit, an opening parenthesis, a quote or a code mark. Abbreviations and decimals
 * ("e.g. /items", "$500.00", "RFC 9457") never meet that.
 */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9("'<{`])/;

/** The sentences of a paragraph or list item, each normalised (split before code marks are dropped). */
function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map(normalise)
    .filter((s) => s.length > 0);
}

/**
 * Splits a Markdown document into units: every sentence of every paragraph
 * and list item, every table row but the header and the separator. Headings,
 * HTML comments and the title are not units.
 */
export function unitsOf(markdown: string): Unit[] {
  const units: Unit[] = [];
  let section = '0';
  let block: string[] = [];
  let inTable = false;
  const flush = () => {
    if (block.length > 0) {
      for (const text of sentencesOf(block.join(' ')))
        units.push({ section, kind: 'sentence', text });
    }
    block = [];
  };
  for (const line of markdown.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) {
      flush();
      inTable = false;
      const numbered = /^## (\d+)\.\s/.exec(trimmed);
      if (numbered?.[1]) section = numbered[1];
      continue;
    }
    if (trimmed === '' || /^<!--.*-->$/.test(trimmed)) {
      flush();
      inTable = false;
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      if (!inTable) {
        inTable = true; // the header row
        continue;
      }
      if (/^\|[\s|:-]+\|$/.test(trimmed)) continue; // the separator row
      units.push({ section, kind: 'row', text: normalise(trimmed) });
      continue;
    }
    inTable = false;
    const item = /^(?:[-*]|\d+\.)\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      block = [item[1] ?? ''];
    } else {
      block.push(trimmed);
    }
  }
  flush();
  return units;
}
