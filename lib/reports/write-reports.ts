import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { completeAllureResults } from './allure-complete.js';
import { renderHar } from './har.js';
import { htmlPieces } from './html/render.js';
import { jsonPieces } from './json-pieces.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './report-model.js';
import type { Reproduction } from './repro/reproduction.js';
import { writeRepro } from './repro/write-repro.js';
import type { SafetyNet } from './safety-net.js';

export const ALLURE_DIR = 'allure-results';

/**
 * Writes every report into the report directory, each through the safety
 * net (values and rendered text), then passes the net over what allure-vitest wrote there too. Answers
 * the files written.
 */
export async function writeReports(
  unsafe: Report,
  dir: string,
  net: SafetyNet,
  reproductions: readonly Reproduction[] = [],
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  // Twice: the values before rendering (escaping would hide a secret's shape), the text after.
  const report = net.cleanValue(unsafe);
  // One file at a time, each in pieces (the JSON report a rule, the page a row, the HAR an
  // exchange): a run's peak memory holds a piece of one report's text, not whole reports.
  const files: [string, (report: Report) => Iterable<string>][] = [
    ['report.json', reportJson],
    ['report.html', htmlPieces],
    ['junit.xml', (r) => [renderJunit(r)]],
    ['summary.md', (r) => [renderMarkdown(r)]],
    ['exchanges.har', renderHar],
  ];
  const written: string[] = [];
  for (const [name, render] of files) {
    const path = join(dir, name);
    writeBatches(path, cleanBatches(render(report), net));
    written.push(path);
  }
  written.push(...(await writeRepro(report, reproductions, dir, net)));
  // A client report has no vitest run behind it: no allure-results to complete.
  if (report.client) return written;
  await completeAllureResults(report, join(dir, ALLURE_DIR));
  cleanDirectory(join(dir, ALLURE_DIR), net);
  return written;
}

function* reportJson(report: Report): Generator<string> {
  yield* jsonPieces(report, ['results']);
  yield '\n';
}

/**
 * The pieces through the net, joined into batches of ~64 K characters: one write each
 * (a piece each would be thousands of writes). A secret never spans two pieces: each is
 * whole values (a rule's result, an exchange, a table row).
 */
function* cleanBatches(pieces: Iterable<string>, net: SafetyNet): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    const cleaned = net.clean(piece);
    batch.push(cleaned);
    size += cleaned.length;
    if (size >= BATCH) {
      yield batch.join('');
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) yield batch.join('');
}
const BATCH = 65_536;

/**
 * Rewrites text files a third party wrote, through the net. Binary files (a NUL byte) are left
 * alone. Read synchronously, as allure-complete.ts does: a run's ~400 small files.
 */
function cleanDirectory(dir: string, net: SafetyNet): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      continue;
    }
    if (bytes.includes(0)) continue;
    const text = bytes.toString('utf8');
    const cleaned = net.clean(text);
    if (cleaned !== text) writeFileSync(path, cleaned);
  }
}

/**
 * Each batch written as it is made, synchronously: nothing else runs on this thread at the run's
 * end, and awaiting each of a full run's ~400 batches through the thread pool left the thread
 * idle between them (writing a full run's reports over and over: 203 to 217 ms a time against
 * 234 to 236). writeFileSync on a descriptor writes the whole batch at the file's position.
 */
function writeBatches(path: string, batches: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const batch of batches) writeFileSync(fd, batch);
  } finally {
    closeSync(fd);
  }
}
