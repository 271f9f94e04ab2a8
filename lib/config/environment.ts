import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { ConfigError } from './config-error.js';
import { malformedDotenvLines } from './dotenv-lines.js';

/** A value and where it came from, so an error can name the right place. */
export interface Sourced<T> {
  value: T;
  /** `--seed`, `CONFORMANCE_SEED` or `CONFORMANCE_SEED (.env)`. */
  source: string;
}

/**
 * The process environment over the `.env` file of the working directory
 * (dotenv's own rule: a real variable wins). Read without touching
 * `process.env`, so nothing here leaks into child processes by accident.
 * Empty values count as unset: a copied `.env.example` leaves many blank.
 */
export class Environment {
  readonly #process: Readonly<Record<string, string | undefined>>;
  readonly #file: Readonly<Record<string, string>>;

  constructor(
    processEnv: Readonly<Record<string, string | undefined>>,
    dotenv: Record<string, string>,
  ) {
    this.#process = processEnv;
    this.#file = dotenv;
  }

  static load(cwd: string, processEnv: Readonly<Record<string, string | undefined>>): Environment {
    const path = join(cwd, '.env');
    if (!existsSync(path)) return new Environment(processEnv, {});
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(
        '.env',
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const malformed = malformedDotenvLines(text);
    if (malformed.length > 0) {
      // The line itself is not echoed: it may hold a secret.
      throw new ConfigError(
        '.env',
        `line ${malformed.join(', ')} is not NAME=value (a setting there would be ignored)`,
      );
    }
    return new Environment(processEnv, parse(text));
  }

  /** Every name set, with where (for unknown-setting warnings); a real variable hides its `.env` twin. */
  names(): { name: string; source: string }[] {
    const seen = new Map<string, string>();
    for (const name of Object.keys(this.#file)) seen.set(name, `${name} (.env)`);
    for (const [name, value] of Object.entries(this.#process))
      if (value !== undefined) seen.set(name, name);
    return [...seen].map(([name, source]) => ({ name, source }));
  }

  get(name: string): Sourced<string> | undefined {
    if (!name) return undefined;
    const real = this.#process[name];
    if (real !== undefined && real.trim() !== '') return { value: real.trim(), source: name };
    const fromFile = this.#file[name];
    if (fromFile !== undefined && fromFile.trim() !== '') {
      return { value: fromFile.trim(), source: `${name} (.env)` };
    }
    return undefined;
  }
}
