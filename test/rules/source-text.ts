import { readFileSync } from 'node:fs';
import type { SourceDoc } from '../../rules/schema.js';

/** The files a rule's `source.doc` names. */
export const SOURCE_FILES: Record<SourceDoc, URL> = {
  api: new URL('../../docs/partner-ordering-api.md', import.meta.url),
  contract: new URL('../../docs/target-contract.md', import.meta.url),
};

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

/** The normalised sections of both source documents. */
export function sourceSections(): Record<SourceDoc, Map<string, string>> {
  return {
    api: sectionsOf(readFileSync(SOURCE_FILES.api, 'utf8')),
    contract: sectionsOf(readFileSync(SOURCE_FILES.contract, 'utf8')),
  };
}
