import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config/config-error.js';

/**
 * Checks before the run that the report directory can be made: finding it
 * unwritable after a long run would lose the run. Creates nothing, so a run
 * that stops early (unreachable target) leaves no empty directory behind.
 */
export function checkReportDir(dir: string): void {
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory()) {
      throw new ConfigError('--report-dir', `${existing} is a file, not a directory`);
    }
    accessSync(existing, constants.W_OK);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError('--report-dir', `cannot write to ${existing} (${code})`);
  }
}
