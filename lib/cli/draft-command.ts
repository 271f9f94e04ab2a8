import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT, sourcePath } from '../config/package-root.js';
import type { Settings } from '../config/settings.js';
import type { PreparedTarget } from '../prepare/prepare-target.js';
import { probeDialect } from '../probe/dialect-probe.js';
import type { Draft } from '../probe/draft/draft.js';
import { draftDialect } from '../probe/draft/draft-dialect.js';
import { draftProfileFile } from '../probe/draft/draft-file.js';
import { mismatchLine } from '../probe/judge.js';
import { draftFromOpenApi, OpenApiDraftError, readOpenApi } from '../probe/openapi-draft.js';
import type { SafetyNet } from '../reports/safety-net.js';
import { EXIT } from '../verdict/words.js';
import type { Terminal } from './terminal.js';

/**
 * `--draft-profile FILE`: probes the prepared target,
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
  const embedded = prepared.targetInfo.embedded_reference;
  const targetWords = embedded ? 'the bundled reference server' : prepared.runConfig.origin;
  let draft: Draft;
  let headline: string | undefined;
  if (settings.draftProfileFrom !== undefined) {
    const from = await fromOpenApi(settings.draftProfileFrom, prepared, terminal, cwd, targetWords);
    if (typeof from === 'number') return from;
    ({ draft, headline } = from);
  } else draft = await draftDialect(prepared.runConfig);
  const { profile, todos } = draftProfileFile({
    draft,
    file,
    schemaFile: sourcePath(join(PACKAGE_ROOT, 'config', 'profile.schema.json')),
    ...(headline ? { headline } : {}),
    targetWords,
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
  terminal.out(
    `${settings.draftProfileFrom ? 'Paths the document shows' : 'Paths that answered'}: ${draft.answered.join(', ') || 'none'}`,
  );
  for (const todo of todos) terminal.out(`TODO: ${todo}`);
  terminal.out(
    `Next: review ${shown} (docs/profiles.md), then run with --profile ${shown}${todos.length ? '; the TODOs are in its description too' : ''}`,
  );
  return EXIT.ok;
}

/**
 * `--draft-profile-from FILE`: the dialect the target's OpenAPI document
 * states (lib/probe/openapi-draft.ts), then the dialect probe a run starts
 * with, against the target, with that dialect: what the target answers
 * otherwise than its document says becomes a TODO naming the field.
 */
async function fromOpenApi(
  documentFile: string,
  prepared: PreparedTarget,
  terminal: Terminal,
  cwd: string,
  targetWords: string,
): Promise<{ draft: Draft; headline: string } | number> {
  const shown = relative(cwd, documentFile).startsWith('..')
    ? documentFile
    : relative(cwd, documentFile);
  let draft: Draft;
  try {
    draft = draftFromOpenApi(
      readOpenApi(await readFile(documentFile, 'utf8')),
      prepared.runConfig.dialect,
    );
  } catch (error) {
    if (
      !(error instanceof OpenApiDraftError) &&
      (error as NodeJS.ErrnoException).code === undefined
    )
      throw error;
    terminal.fail(`--draft-profile-from: ${shown} ${(error as Error).message}`);
    return 2;
  }
  const probe = await probeDialect({ ...prepared.runConfig, dialect: draft.dialect });
  draft.requests = probe.requests;
  for (const mismatch of probe.mismatches)
    draft.todos.push(
      `${mismatch.field}: the document says otherwise than ${targetWords} answers (${mismatchLine(mismatch)})`,
    );
  for (const note of probe.notes)
    draft.todos.push(`the dialect probe could not judge everything: ${note}`);
  const verdict =
    probe.mismatches.length === 0
      ? `the dialect probe found ${targetWords} answering as it says (${probe.requests} requests)`
      : `the dialect probe found ${probe.mismatches.length} field(s) where ${targetWords} answers otherwise (${probe.requests} requests)`;
  return {
    draft,
    headline: `Draft written by --draft-profile-from from the OpenAPI document ${shown} on ${new Date().toISOString()}; ${verdict}. Told by the document: ${draft.inferred.length ? draft.inferred.join(', ') : 'nothing'}.`,
  };
}
