import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../../lib/reports/report-model.js';

export function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

/** Every file under a directory (allure-results included), with its text. */
export function allFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory()
      ? allFiles(path)
      : [{ path, text: readFileSync(path, 'utf8') }];
  });
}
