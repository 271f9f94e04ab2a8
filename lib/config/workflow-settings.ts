import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Rule } from '../../rules/index.js';
import { ConfigError, quote } from './config-error.js';
import type { Sourced } from './environment.js';
import type { OptionName } from './options.js';
import { loadWaivers, type Waiver } from './waiver-file.js';

/** Certification and nightly settings: package signing, verify, waivers, history. */
export interface WorkflowSettings {
  /** Absolute path of an Ed25519 private key (PEM); checked at start, read again to sign. */
  signKey?: string;
  /** `--verify DIR`: check a report directory instead of running. */
  verify?: string;
  /** Absolute path of the public key `--verify` checks the signature with. */
  publicKey?: string;
  waivers?: { file: string; waivers: Waiver[] };
  /** Absolute path of the history directory. */
  history?: string;
  /** `--target-name`: what the history is keyed by (default: the target's origin). */
  targetName?: string;
}

export function loadWorkflowSettings(
  read: (name: OptionName) => Sourced<string> | undefined,
  cwd: string,
  rules: readonly Rule[],
): WorkflowSettings {
  const out: WorkflowSettings = {};
  const signKey = read('sign-key');
  if (signKey) {
    const path = resolve(cwd, signKey.value);
    let type: string | undefined;
    try {
      type = createPrivateKey(readFileSync(path, 'utf8')).asymmetricKeyType;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' || code === 'EACCES'
          ? `cannot read ${quote(signKey.value)} (${code})`
          : `${quote(signKey.value)} is not a PEM private key`;
      throw new ConfigError(signKey.source, why);
    }
    if (type !== 'ed25519') {
      throw new ConfigError(signKey.source, `is a ${type ?? 'symmetric'} key, not an Ed25519 one`);
    }
    out.signKey = path;
  }
  const verify = read('verify');
  if (verify) {
    const dir = resolve(cwd, verify.value);
    if (!existsSync(dir))
      throw new ConfigError(verify.source, `no directory ${quote(verify.value)}`);
    out.verify = dir;
  }
  const publicKey = read('public-key');
  if (publicKey) {
    if (!verify) throw new ConfigError(publicKey.source, 'is only used with --verify');
    const path = resolve(cwd, publicKey.value);
    if (!existsSync(path))
      throw new ConfigError(publicKey.source, `no file ${quote(publicKey.value)}`);
    out.publicKey = path;
  }
  const waivers = read('waivers');
  if (waivers) out.waivers = loadWaivers(waivers.value, waivers.source, cwd, rules);
  const history = read('history');
  if (history) {
    const dir = resolve(cwd, history.value);
    if (existsSync(dir) && !statSync(dir).isDirectory())
      throw new ConfigError(history.source, `${quote(history.value)} is a file, not a directory`);
    out.history = dir;
  }
  const targetName = read('target-name');
  if (targetName) {
    if (targetName.value === '') throw new ConfigError(targetName.source, 'must not be empty');
    out.targetName = targetName.value;
  }
  return out;
}
