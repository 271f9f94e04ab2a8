import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT, sourcePath } from '../config/package-root.js';
import type { Settings } from '../config/settings.js';
import { draftProfileFile } from '../probe/draft-file.js';
import { draftDialect } from '../probe/draft-profile.js';
import type { SafetyNet } from '../reports/safety-net.js';
import type { PreparedTarget } from '../runner/prepare-target.js';
import { EXIT } from '../verdict/words.js';
import type { Terminal } from './terminal.js';

/**
 * `--draft-profile FILE` (issue 11, point 4): probes the prepared target,
 * writes a version-2 profile of what it answered, prints what it inferred
 * and every TODO, and exits 0 without running a check. The file is written
 * through the safety net and never over an existing one.
 */
export async function draftCommand(
  settings: Settings & { draftProfile: string },
  prepared: PreparedTarget,
  terminal: Terminal,
  net: SafetyNet,
  cwd: string,
): Promise<number> {
  const file = settings.draftProfile;
  const draft = await draftDialect(prepared.runConfig);
  const embedded = prepared.targetInfo.embedded_reference;
  const { profile, todos } = draftProfileFile({
    draft,
    file,
    schemaFile: sourcePath(join(PACKAGE_ROOT, 'config', 'profile.schema.json')),
    targetWords: embedded ? 'the bundled reference server' : prepared.runConfig.origin,
    ...(settings.target ? { target: settings.target } : {}),
    ...(settings.controlUrl ? { controlUrl: settings.controlUrl } : {}),
    now: new Date(),
  });
  const shown = relative(cwd, file).startsWith('..') ? file : relative(cwd, file);
  try {
    // `wx`: a file made since the settings were read is not overwritten either.
    await writeFile(file, net.clean(`${JSON.stringify(profile, null, 2)}\n`), { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    terminal.fail(`could not write the draft profile ${shown} (${code}); nothing was overwritten`);
    return EXIT.notCarriedOut;
  }
  terminal.out(
    `Draft profile written: ${shown} (${draft.requests} requests; inferred: ${draft.inferred.join(', ') || 'nothing'})`,
  );
  terminal.out(`Paths that answered: ${draft.answered.join(', ') || 'none'}`);
  for (const todo of todos) terminal.out(`TODO: ${todo}`);
  terminal.out(
    `Next: review ${shown} (docs/profiles.md), then run with --profile ${shown}${todos.length ? '; the TODOs are in its description too' : ''}`,
  );
  return EXIT.ok;
}
