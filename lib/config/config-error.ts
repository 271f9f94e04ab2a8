/**
 * A setting is wrong or missing. Carries the setting's name (a flag, an
 * environment variable or a profile field) and one sentence; the CLI prints
 * it as one line and exits 2 (target contract, section 4). The message never
 * holds a secret value: callers describe secrets, they never quote them.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.setting = setting;
  }
}

/** Quotes a user's value for an error line, shortened so one line stays one line. */
export function quote(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine);
}
