import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { hashDirectory, MANIFEST_FILE, SIGNATURE_FILE } from '../reports/file-hashes.js';
import { readPublicKey, verifyBytes } from '../reports/signature.js';
import { EXIT } from '../verdict/words.js';
import type { Terminal } from './terminal.js';

const ManifestFiles = z.object({ files: z.record(z.string(), z.string()) });

/**
 * `--verify DIR [--public-key FILE]`: checks a certification package. Every
 * file manifest.json lists must be there with the same sha256, and no file
 * may have been added; with a public key, manifest.sig must verify. Exit 0
 * when all holds, 1 when anything differs, 2 when the package cannot be read.
 */
export async function verifyPackage(
  dir: string,
  publicKeyFile: string | undefined,
  terminal: Terminal,
): Promise<number> {
  let bytes: Buffer;
  let listed: Record<string, string>;
  try {
    bytes = await readFile(join(dir, MANIFEST_FILE));
    const parsed = ManifestFiles.safeParse(JSON.parse(bytes.toString('utf8')));
    if (!parsed.success) {
      terminal.fail(`${join(dir, MANIFEST_FILE)} has no "files" table of sha256 hashes`);
      return EXIT.notCarriedOut;
    }
    listed = parsed.data.files;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    terminal.fail(
      `cannot read ${join(dir, MANIFEST_FILE)} (${code ?? 'not valid JSON'}): not a report directory of this suite?`,
    );
    return EXIT.notCarriedOut;
  }
  const actual = hashDirectory(dir);
  const problems: string[] = [];
  for (const [name, hash] of Object.entries(listed)) {
    if (!(name in actual)) problems.push(`missing   ${name}`);
    else if (actual[name] !== hash) problems.push(`changed   ${name}`);
  }
  for (const name of Object.keys(actual)) {
    if (!(name in listed)) problems.push(`not listed ${name}`);
  }
  const fileCount = Object.keys(listed).length;

  let signature: 'valid' | 'invalid' | 'absent' | 'not checked';
  let sig: string | undefined;
  try {
    sig = await readFile(join(dir, SIGNATURE_FILE), 'utf8');
  } catch {
    sig = undefined;
  }
  if (publicKeyFile) {
    let key: ReturnType<typeof readPublicKey>;
    try {
      key = readPublicKey(await readFile(publicKeyFile, 'utf8'));
    } catch (error) {
      const why =
        error instanceof Error && error.message.startsWith('is a')
          ? error.message
          : 'is not a PEM key';
      terminal.fail(`--public-key: ${publicKeyFile} ${why}`);
      return EXIT.notCarriedOut;
    }
    signature = sig === undefined ? 'absent' : verifyBytes(bytes, sig, key) ? 'valid' : 'invalid';
    if (signature !== 'valid') problems.push(`signature ${signature} (${SIGNATURE_FILE})`);
  } else {
    signature = sig === undefined ? 'absent' : 'not checked';
  }

  for (const problem of problems) terminal.out(`FAIL ${problem}`);
  const signed =
    signature === 'valid'
      ? 'signature valid'
      : signature === 'not checked'
        ? 'signature present but not checked (give --public-key)'
        : signature === 'absent' && !publicKeyFile
          ? 'not signed'
          : `signature ${signature}`;
  if (problems.length === 0) {
    terminal.out(`Verified: ${fileCount} files match manifest.json; ${signed}.`);
    return EXIT.ok;
  }
  terminal.out(
    `Verification failed: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} in ${dir}.`,
  );
  return EXIT.failed;
}
