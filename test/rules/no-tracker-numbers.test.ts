import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A tracker number: "issue" or "issues", then maybe a space, "-" or "#", then a number. Readers of
 * the code, the docs and the reports have no tracker: a sentence says its reason instead.
 */
const TRACKER_NUMBER = /\bissues?[ \t_-]*#?\d+\b/i;

/** Copies of published documents, kept word for word: their text is not ours to change. */
const PUBLISHED_COPIES = new Set(['docs/partner-ordering-api.md', 'docs/target-contract.md']);

/** What a checkout holds that git would not list (the same as .gitignore). */
const NOT_OURS = [
  '.git/**',
  'node_modules/**',
  'dist/**',
  'reports/**',
  'coverage/**',
  'allure-results/**',
  '.tmp/**',
  '.cache/**',
  '**/*.db*',
  '.env',
];

/** The repository's files, relative to its root: git's list (tracked and new), or a walk without git. */
function repositoryFiles(): string[] {
  try {
    const listed = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    return [...new Set(listed.split('\0').filter(Boolean))];
  } catch {
    return globSync('**', { cwd: ROOT, dot: true, ignore: NOT_OURS });
  }
}

/** `file:line: text` for each line of `text` that cites a tracker number. */
function trackerCitations(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (TRACKER_NUMBER.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 160)}`);
  }
  return found;
}

describe('no tracker numbers', () => {
  test('the pattern finds every form of a citation and nothing else', () => {
    const cite = (n: number) => [`(issue ${n})`, `Issues ${n} and 4`, `issue #${n}`, `issue-${n}`];
    for (const text of cite(21)) expect(trackerCitations('f', text), text).toHaveLength(1);
    for (const text of [
      'issues no token',
      'the issue time',
      'zod issues',
      `tissue ${21}`,
      'issue21x',
    ])
      expect(trackerCitations('f', text), text).toEqual([]);
    expect(trackerCitations('f.ts', `a\n// see issue ${5}\n`)).toEqual([
      `f.ts:2: // see issue ${5}`,
    ]);
  });

  test('no file of the repository but the published copies cites one: say the reason instead', () => {
    const files = repositoryFiles();
    expect(files).toContain('package.json');
    const found: string[] = [];
    for (const file of files) {
      if (PUBLISHED_COPIES.has(file) || !existsSync(join(ROOT, file))) continue;
      const bytes = readFileSync(join(ROOT, file));
      if (bytes.includes(0)) continue; // binary
      found.push(...trackerCitations(file, bytes.toString('utf8')));
    }
    expect(found.join('\n')).toBe('');
  });
});
