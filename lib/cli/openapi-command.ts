import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { PACKAGE_ROOT } from '../config/package-root.js';
import type { Settings } from '../config/settings.js';
import type { Terminal } from './terminal.js';

/**
 * `--openapi FILE`: the OpenAPI 3.1 description of the profile's dialect
 * (the reference dialect by default), written by the reference server's own
 * generator (server/openapi/), the one that serves `GET /openapi.json`: one
 * writer, so the file and what the sandbox serves never drift. The suite's
 * reading of the profile is handed over as the generator's dialect (the two
 * models are one shape; the type check holds them to it). Never overwrites a
 * file; runs no check and needs no target.
 */
export async function openApiCommand(
  settings: Settings & { openapi: string },
  terminal: Terminal,
  cwd: string,
): Promise<number> {
  const { openApiDocument } = await import('../../server/openapi/document.js');
  const { profile } = settings;
  // No --profile: the suite's own config/reference.json, wherever the package is.
  const named = profile.name.startsWith(PACKAGE_ROOT)
    ? 'the reference dialect (config/reference.json)'
    : `profile ${profile.name}`;
  const document = openApiDocument(profile.dialect, { title: named });
  const file = settings.openapi;
  const shown = relative(cwd, file).startsWith('..') ? file : relative(cwd, file);
  try {
    await writeFile(file, `${JSON.stringify(document, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    terminal.fail(
      `could not write the OpenAPI document ${shown} (${code}); nothing was overwritten`,
    );
    return 2;
  }
  const operations = Object.values(document.paths as Record<string, object>).reduce(
    (n, item) => n + Object.keys(item).length,
    0,
  );
  terminal.out(
    `OpenAPI 3.1 written: ${shown} (${operations} operations, ${named}); docs/openapi.md says what it holds`,
  );
  return 0;
}
