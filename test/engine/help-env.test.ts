import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envExampleText } from '../../lib/config/env-example.js';
import { EXIT_CODES, helpText } from '../../lib/config/help.js';
import { ENV_ONLY, OPTION_GROUPS, OPTIONS } from '../../lib/config/options.js';
import { PACKAGE_ROOT } from '../../lib/config/package-root.js';

describe('.env.example', () => {
  const file = readFileSync(join(PACKAGE_ROOT, '.env.example'), 'utf8');

  it('is what the option table generates (npm run docs:env-example)', () => {
    expect(file).toBe(envExampleText());
  });

  it('has every setting the suite reads', () => {
    const names = [...OPTIONS.map((o) => o.env).filter(Boolean), ...ENV_ONLY.map((v) => v.env)];
    for (const name of names) expect(file, name).toMatch(new RegExp(`^${name}=$`, 'm'));
    for (const name of ['CONFORMANCE_WAIVERS', 'CONFORMANCE_HISTORY', 'CONFORMANCE_SIGN_KEY'])
      expect(file).toContain(`${name}=`);
  });
});

describe('--help', () => {
  const help = helpText();

  it('groups the options, each group with an example, and lists every option once', () => {
    const titles = Object.values(OPTION_GROUPS).map((g) => g.title);
    expect(titles).toEqual([
      'Target and credentials',
      'Certification',
      'Nightly runs',
      'Output',
      'Tuning',
    ]);
    let at = -1;
    for (const { title, example } of Object.values(OPTION_GROUPS)) {
      const here = help.indexOf(`${title}:`);
      expect(here, title).toBeGreaterThan(at);
      at = here;
      expect(help).toContain(`  Example: ${example}`);
    }
    for (const option of OPTIONS)
      expect(help.match(new RegExp(`^  --${option.flag}(?= |$)`, 'gm')), option.flag).toHaveLength(
        1,
      );
  });

  it('lists every exit code, 130 included', () => {
    expect(EXIT_CODES.map(([code]) => code)).toEqual([0, 1, 2, 3, 130]);
    for (const [code] of EXIT_CODES) expect(help).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });
});
