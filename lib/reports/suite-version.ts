import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../config/package-root.js';

/** The suite's package version: a certification record names exactly what judged it. */
export function suiteVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The target contract version the verdicts follow (shared/design/target-contract.md). */
export const CONTRACT_VERSION = '1';
